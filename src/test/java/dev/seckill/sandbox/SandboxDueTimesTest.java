package dev.seckill.sandbox;

import java.time.Duration;
import java.util.List;
import java.util.SplittableRandom;

import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** When notifications fall due: within the delay range, and for one action in order or last first. */
class SandboxDueTimesTest {

    static final Duration MIN = Duration.ofMillis(100);
    static final Duration MAX = Duration.ofMillis(2_000);

    @RepeatedTest(20)
    void eachDelayIsWithinTheRangeAndInOrderWhenAsked() {
        List<Duration> delays = new DueTimes(MIN, MAX, false, new SplittableRandom()).delays(3);
        assertThat(delays).hasSize(3).isSorted();
        assertThat(delays.get(0)).isBetween(MIN, MAX);
        assertThat(delays.get(1)).isGreaterThan(delays.get(0));
        assertThat(delays.get(2)).isGreaterThan(delays.get(1)).isLessThanOrEqualTo(MAX.plusMillis(2));
    }

    @RepeatedTest(20)
    void outOfOrderTheLastEventIsDueFirst() {
        List<Duration> delays = new DueTimes(MIN, MAX, true, new SplittableRandom()).delays(2);
        assertThat(delays.get(1)).as("payment.succeeded before payment.processing").isLessThan(delays.get(0));
    }

    @Test
    void withoutSpreadTheOrderStillHoldsByAMillisecond() {
        assertThat(new DueTimes(Duration.ZERO, Duration.ZERO, true, new SplittableRandom()).delays(2))
                .containsExactly(Duration.ofMillis(1), Duration.ZERO);
        assertThat(new DueTimes(Duration.ZERO, Duration.ZERO, false, new SplittableRandom()).delays(2))
                .containsExactly(Duration.ZERO, Duration.ofMillis(1));
    }

    @Test
    void theRandomDecidesWithinTheRange() {
        DueTimes seeded = new DueTimes(MIN, MAX, false, new SplittableRandom(42));
        DueTimes sameSeed = new DueTimes(MIN, MAX, false, new SplittableRandom(42));
        for (int i = 0; i < 100; i++) {
            Duration one = seeded.one();
            assertThat(one).isBetween(MIN, MAX).isEqualTo(sameSeed.one());
        }
    }
}
