package dev.seckill.ratelimit;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

import static dev.seckill.ratelimit.LocalLimitGate.Verdict.ALLOW;
import static dev.seckill.ratelimit.LocalLimitGate.Verdict.ASK;
import static dev.seckill.ratelimit.LocalLimitGate.Verdict.DENY;
import static org.assertj.core.api.Assertions.assertThat;

/** What an instance decides alone about a shopper's limit, on a fake ticker. */
class LocalLimitGateTest {

    final AtomicLong nanos = new AtomicLong(1_000_000_000L);
    final LocalLimitGate gate = new LocalLimitGate(Duration.ofSeconds(1), nanos::get);

    @Test
    void aShoppersFirstRequestInAWindowPassesAndTheNextOnesAskTheSharedLimiter() {
        assertThat(gate.check(7)).isEqualTo(ALLOW);
        assertThat(gate.check(7)).isEqualTo(ASK);
        assertThat(gate.check(7)).isEqualTo(ASK);
        assertThat(gate.check(8)).as("another shopper").isEqualTo(ALLOW);
    }

    @Test
    void theNextWindowStartsWithAFreeRequestAgain() {
        assertThat(gate.check(7)).isEqualTo(ALLOW);
        advance(Duration.ofMillis(999));
        assertThat(gate.check(7)).isEqualTo(ASK);
        advance(Duration.ofMillis(1));
        assertThat(gate.check(7)).isEqualTo(ALLOW);
        assertThat(gate.check(7)).isEqualTo(ASK);
    }

    @Test
    void aRefusedShopperIsRefusedWithoutAskingForATenthOfTheWindow() {
        assertThat(gate.check(7)).isEqualTo(ALLOW);
        gate.refused(7);
        assertThat(gate.check(7)).isEqualTo(DENY);
        advance(Duration.ofMillis(99));
        assertThat(gate.check(7)).isEqualTo(DENY);
        advance(Duration.ofMillis(1));
        assertThat(gate.check(7)).as("asks again: a permit may have come free").isEqualTo(ASK);
        assertThat(gate.check(8)).as("other shoppers are not affected").isEqualTo(ALLOW);
    }

    private void advance(Duration by) {
        nanos.addAndGet(by.toNanos());
    }
}
