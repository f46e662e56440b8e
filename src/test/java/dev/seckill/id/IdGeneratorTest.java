package dev.seckill.id;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

import dev.seckill.support.SteppingClock;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class IdGeneratorTest {

    @Test
    void idsAreUniqueAndIncreasingEvenWhenOneMillisecondIsUsedUp() {
        IdGenerator ids = new IdGenerator(5, Clock.fixed(Instant.parse("2026-11-22T00:00:00Z"), ZoneOffset.UTC));
        long previous = 0;
        for (int i = 0; i < 10_000; i++) { // more than the 4,096 ids one millisecond holds
            long id = ids.next();
            assertThat(id).isGreaterThan(previous);
            previous = id;
        }
    }

    @Test
    void idsStayIncreasingWhenTheClockStepsBack() {
        AtomicLong millis = new AtomicLong(Instant.parse("2026-11-22T00:00:00Z").toEpochMilli());
        IdGenerator ids = new IdGenerator(1, new SteppingClock(millis));
        long before = ids.next();
        millis.addAndGet(-5_000);
        assertThat(ids.next()).isGreaterThan(before);
    }

    @Test
    void differentWorkersNeverCollide() {
        Clock clock = Clock.fixed(Instant.parse("2026-11-22T00:00:00Z"), ZoneOffset.UTC);
        IdGenerator a = new IdGenerator(1, clock);
        IdGenerator b = new IdGenerator(2, clock);
        Set<Long> seen = new HashSet<>();
        for (int i = 0; i < 5_000; i++) {
            assertThat(seen.add(a.next())).isTrue();
            assertThat(seen.add(b.next())).isTrue();
        }
    }

    @Test
    void idsAreTimeOrderedAcrossWorkers() {
        AtomicLong millis = new AtomicLong(Instant.parse("2026-11-22T00:00:00Z").toEpochMilli());
        IdGenerator late = new IdGenerator(IdGenerator.MAX_WORKER, new SteppingClock(millis));
        long first = late.next();
        millis.incrementAndGet();
        assertThat(new IdGenerator(0, new SteppingClock(millis)).next()).isGreaterThan(first);
    }

    @Test
    void refusesAnOutOfRangeWorker() {
        assertThatThrownBy(() -> new IdGenerator(IdGenerator.MAX_WORKER + 1, Clock.systemUTC()))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void refusesIdsUntilAWorkerNumberIsLeased() {
        IdGenerator ids = new IdGenerator(Clock.systemUTC(), () -> 0);
        assertThatThrownBy(ids::next).isInstanceOf(IdsUnavailableException.class);
    }

    @Test
    void aNewHolderStartsAfterThePreviousHoldersHighWaterMark() {
        long now = Instant.parse("2026-11-22T00:00:00Z").toEpochMilli();
        // The previous holder's clock ran 30 s ahead of ours: its mark is in our future.
        long previousIssuedUntil = now + 30_000;
        AtomicLong millis = new AtomicLong(now);
        IdGenerator ids = new IdGenerator(new SteppingClock(millis), () -> 0);
        ids.startLease(7, previousIssuedUntil, previousIssuedUntil + 60_000, 1_000);
        long first = ids.next();
        assertThat(IdGenerator.issuedAt(first).toEpochMilli()).isEqualTo(previousIssuedUntil + 1);
        assertThat(workerOf(first)).isEqualTo(7);
        // Once our clock passes the mark, ids carry the real time again.
        millis.set(previousIssuedUntil + 5_000);
        assertThat(IdGenerator.issuedAt(ids.next()).toEpochMilli()).isEqualTo(previousIssuedUntil + 5_000);
    }

    @Test
    void neverIssuesPastTheCeilingItStoredEvenIfTheClockJumpsForward() {
        long now = Instant.parse("2026-11-22T00:00:00Z").toEpochMilli();
        AtomicLong millis = new AtomicLong(now);
        IdGenerator ids = new IdGenerator(new SteppingClock(millis), () -> 0);
        ids.startLease(3, 0, now + 60_000, 1_000);
        long before = ids.next();
        millis.addAndGet(61_000); // past the ceiling a later holder of worker 3 would start after
        assertThatThrownBy(ids::next).isInstanceOf(IdsUnavailableException.class);
        // The renewal writes a higher mark; issuing resumes, still increasing.
        long ceiling = ids.nextCeiling(60_000);
        assertThat(ceiling).isEqualTo(now + 61_000 + 60_000);
        ids.renewed(3, ceiling, 2_000);
        assertThat(ids.next()).isGreaterThan(before);
    }

    @Test
    void stopsIssuingWhenTheLeaseRunsOutByTheMonotonicClock() {
        AtomicLong nanos = new AtomicLong(0);
        IdGenerator ids = new IdGenerator(Clock.fixed(Instant.parse("2026-11-22T00:00:00Z"), ZoneOffset.UTC), nanos::get);
        ids.startLease(1, 0, Long.MAX_VALUE, 60_000_000_000L);
        nanos.set(59_999_999_999L);
        ids.next();
        nanos.set(60_000_000_000L);
        assertThatThrownBy(ids::next).isInstanceOf(IdsUnavailableException.class);
        ids.renewed(1, Long.MAX_VALUE, 120_000_000_000L);
        ids.next();
        // A renewal that reports on a lease already given up changes nothing.
        long issuedUntil = ids.stopLease(1);
        ids.renewed(1, Long.MAX_VALUE, 180_000_000_000L);
        assertThatThrownBy(ids::next).isInstanceOf(IdsUnavailableException.class);
        assertThat(issuedUntil).isEqualTo(Instant.parse("2026-11-22T00:00:00Z").toEpochMilli());
    }

    @Test
    void theClockSteppingBackAndAFullMillisecondStayUniqueUnderALease() {
        long now = Instant.parse("2026-11-22T00:00:00Z").toEpochMilli();
        AtomicLong millis = new AtomicLong(now);
        IdGenerator ids = new IdGenerator(new SteppingClock(millis), () -> 0);
        ids.startLease(9, 0, now + 60_000, 1_000);
        Set<Long> seen = new HashSet<>();
        long previous = 0;
        for (int i = 0; i < 10_000; i++) { // more than one millisecond holds
            if (i == 5_000) {
                millis.addAndGet(-2_000); // NTP steps the clock back
            }
            long id = ids.next();
            assertThat(id).isGreaterThan(previous);
            assertThat(seen.add(id)).isTrue();
            previous = id;
        }
        // 10,000 ids at 4,096 per millisecond: three milliseconds, none of them before the first.
        assertThat(IdGenerator.issuedAt(previous).toEpochMilli()).isEqualTo(now + 2);
        assertThat(ids.stopLease(9)).isEqualTo(now + 2);
    }

    private static long workerOf(long id) {
        return (id >>> IdGenerator.SEQUENCE_BITS) & IdGenerator.MAX_WORKER;
    }
}
