package dev.seckill.id;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

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

    private static final class SteppingClock extends Clock {

        private final AtomicLong millis;

        SteppingClock(AtomicLong millis) {
            this.millis = millis;
        }

        @Override
        public long millis() {
            return millis.get();
        }

        @Override
        public Instant instant() {
            return Instant.ofEpochMilli(millis.get());
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }
    }
}
