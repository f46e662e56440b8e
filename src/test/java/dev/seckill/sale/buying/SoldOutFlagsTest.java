package dev.seckill.sale.buying;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The sold-out flag policy on a clock that moves only when told to (starting near the overflow of a long,
 * as {@code System.nanoTime()} may), with a counter the test sets and counts reads of, and the messages
 * that would go to the other instances collected.
 */
class SoldOutFlagsTest {

    static final long VOUCHER = 7;
    static final Duration RECHECK = Duration.ofMillis(500);

    final AtomicLong now = new AtomicLong(Long.MAX_VALUE - 200_000_000L);
    final Set<Long> counterAtZero = new HashSet<>();
    final AtomicInteger counterReads = new AtomicInteger();
    final List<String> published = new ArrayList<>();
    final SoldOutFlags flags = new SoldOutFlags(RECHECK, now::get, voucherId -> {
        counterReads.incrementAndGet();
        return counterAtZero.contains(voucherId);
    }, published::add);

    @Test
    void aVoucherNeverSoldOutIsAdmittedWithoutAnyRedisCall() {
        assertThat(flags.admit(VOUCHER)).isNotEqualTo(SoldOutFlags.SOLD_OUT);
        assertThat(counterReads).hasValue(0);
        assertThat(published).isEmpty();
    }

    @Test
    void aSoldOutAnswerRefusesFromMemoryAndTellsTheOtherInstancesOnce() {
        counterAtZero.add(VOUCHER);
        flags.markSoldOut(VOUCHER, flags.admit(VOUCHER));
        for (int i = 0; i < 1_000; i++) {
            assertThat(flags.admit(VOUCHER)).isEqualTo(SoldOutFlags.SOLD_OUT);
        }
        assertThat(counterReads).as("no Redis call within the interval").hasValue(0);
        assertThat(published).containsExactly("+" + VOUCHER);
    }

    @Test
    void anExpiredFlagIsRecheckedByOneRequestPerIntervalAndRenewedWithoutAMessage() {
        counterAtZero.add(VOUCHER);
        flags.markSoldOut(VOUCHER, flags.admit(VOUCHER));
        for (int interval = 1; interval <= 3; interval++) {
            now.addAndGet(RECHECK.toNanos());
            for (int i = 0; i < 100; i++) {
                assertThat(flags.admit(VOUCHER)).isEqualTo(SoldOutFlags.SOLD_OUT);
            }
            assertThat(counterReads).as("one re-check per interval").hasValue(interval);
        }
        now.addAndGet(RECHECK.toNanos() - 1);
        assertThat(flags.admit(VOUCHER)).isEqualTo(SoldOutFlags.SOLD_OUT);
        assertThat(counterReads).as("trusted for the whole interval after a re-check").hasValue(3);
        assertThat(published).containsExactly("+" + VOUCHER);
    }

    @Test
    void manyRequestsMeetingAnExpiredFlagAtOnceCostOneRecheck() throws Exception {
        counterAtZero.add(VOUCHER);
        flags.markSoldOut(VOUCHER, flags.admit(VOUCHER));
        now.addAndGet(RECHECK.toNanos());
        CountDownLatch start = new CountDownLatch(1);
        ExecutorService requests = Executors.newFixedThreadPool(8);
        List<Future<Boolean>> refused = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            refused.add(requests.submit(() -> {
                start.await();
                boolean all = true;
                for (int n = 0; n < 1_000; n++) {
                    all &= flags.admit(VOUCHER) == SoldOutFlags.SOLD_OUT;
                }
                return all;
            }));
        }
        start.countDown();
        for (Future<Boolean> thread : refused) {
            assertThat(thread.get(10, TimeUnit.SECONDS)).isTrue();
        }
        requests.shutdown();
        assertThat(counterReads).as("8,000 requests, one re-check").hasValue(1);
    }

    @Test
    void aStaleFlagFromAnotherInstanceHealsWithinOneIntervalWhenUnitsAreBack() {
        flags.received("+" + VOUCHER); // e.g. a sold-out answer read before a restock, spread after it
        assertThat(flags.admit(VOUCHER)).isEqualTo(SoldOutFlags.SOLD_OUT);
        now.addAndGet(RECHECK.toNanos() - 1);
        assertThat(flags.admit(VOUCHER)).isEqualTo(SoldOutFlags.SOLD_OUT);

        now.addAndGet(1);
        assertThat(flags.admit(VOUCHER)).as("the re-check finds units").isNotEqualTo(SoldOutFlags.SOLD_OUT);
        assertThat(flags.admit(VOUCHER)).isNotEqualTo(SoldOutFlags.SOLD_OUT);
        assertThat(counterReads).hasValue(1);
    }

    @Test
    void aMissedClearMessageHealsWithinOneIntervalToo() {
        counterAtZero.add(VOUCHER);
        flags.markSoldOut(VOUCHER, flags.admit(VOUCHER));
        counterAtZero.remove(VOUCHER); // restocked elsewhere; its "-" message never arrives here

        now.addAndGet(RECHECK.toNanos());
        assertThat(flags.admit(VOUCHER)).isNotEqualTo(SoldOutFlags.SOLD_OUT);
        assertThat(flags.admit(VOUCHER)).isNotEqualTo(SoldOutFlags.SOLD_OUT);
    }

    @Test
    void aSoldOutAnswerToARequestAdmittedBeforeAClearDoesNotSetTheFlagAgain() {
        long admittedBefore = flags.admit(VOUCHER); // its enqueue script runs while the voucher is sold out
        flags.clear(VOUCHER); // a restock lands
        flags.markSoldOut(VOUCHER, admittedBefore); // then its stale answer comes back

        assertThat(flags.admit(VOUCHER)).isNotEqualTo(SoldOutFlags.SOLD_OUT);
        assertThat(published).as("nothing spread but the clear").containsExactly("-" + VOUCHER);
    }

    @Test
    void aClearFromAnotherInstanceMakesOlderSoldOutAnswersStaleHereToo() {
        long admittedBefore = flags.admit(VOUCHER);
        flags.received("-" + VOUCHER);
        flags.markSoldOut(VOUCHER, admittedBefore);
        assertThat(flags.admit(VOUCHER)).isNotEqualTo(SoldOutFlags.SOLD_OUT);

        flags.markSoldOut(VOUCHER, flags.admit(VOUCHER)); // a fresh answer still counts
        assertThat(flags.admit(VOUCHER)).isEqualTo(SoldOutFlags.SOLD_OUT);
    }

    @Test
    void aClearLiftsTheFlagAtOnceEverywhere() {
        flags.markSoldOut(VOUCHER, flags.admit(VOUCHER));
        flags.clear(VOUCHER);
        assertThat(flags.admit(VOUCHER)).isNotEqualTo(SoldOutFlags.SOLD_OUT);
        assertThat(published).containsExactly("+" + VOUCHER, "-" + VOUCHER);

        flags.received("+" + VOUCHER);
        flags.received("-" + VOUCHER);
        assertThat(flags.admit(VOUCHER)).isNotEqualTo(SoldOutFlags.SOLD_OUT);
        assertThat(counterReads).hasValue(0);
    }

    @Test
    void aSoldOutMessageDoesNotExtendAFlagThatIsAlreadyTrusted() {
        flags.received("+" + VOUCHER);
        now.addAndGet(RECHECK.toNanos() - 1);
        flags.received("+" + VOUCHER); // the other instance's own flag, echoed while ours stands
        now.addAndGet(1);
        assertThat(flags.admit(VOUCHER)).as("re-checked on time, found units").isNotEqualTo(SoldOutFlags.SOLD_OUT);
    }

    @Test
    void aFailedRecheckKeepsRefusingFromMemoryForAnotherInterval() {
        SoldOutFlags failing = new SoldOutFlags(RECHECK, now::get, voucherId -> {
            counterReads.incrementAndGet();
            throw new IllegalStateException("Redis does not answer");
        }, published::add);
        failing.received("+" + VOUCHER);
        now.addAndGet(RECHECK.toNanos());
        assertThatThrownBy(() -> failing.admit(VOUCHER)).hasMessageContaining("Redis does not answer");
        assertThat(failing.admit(VOUCHER)).isEqualTo(SoldOutFlags.SOLD_OUT);
        assertThat(counterReads).hasValue(1);
    }

    @Test
    void flagsOfOneVoucherLeaveTheOthersAlone() {
        flags.markSoldOut(VOUCHER, flags.admit(VOUCHER));
        assertThat(flags.admit(VOUCHER + 1)).isNotEqualTo(SoldOutFlags.SOLD_OUT);
        flags.clear(VOUCHER + 1);
        assertThat(flags.admit(VOUCHER)).isEqualTo(SoldOutFlags.SOLD_OUT);
    }
}
