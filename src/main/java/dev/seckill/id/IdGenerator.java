package dev.seckill.id;

import java.time.Clock;
import java.time.Instant;

import org.redisson.api.RedissonClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;

/**
 * Time-ordered 64-bit ids (snowflake layout): 41 bits of milliseconds since 2026-01-01, 10 bits of
 * worker id, 12 bits of sequence. The worker id is taken once at start-up from a Redis counter, so
 * instances never coordinate on the hot path. A worker id is reused only after 1,024 further
 * start-ups, long after the earlier holder is gone.
 */
@Component
public class IdGenerator {

    private static final Logger log = LoggerFactory.getLogger(IdGenerator.class);

    static final long EPOCH_MILLIS = Instant.parse("2026-01-01T00:00:00Z").toEpochMilli();
    static final int WORKER_BITS = 10;
    static final int SEQUENCE_BITS = 12;
    static final long MAX_WORKER = (1L << WORKER_BITS) - 1;
    static final long MAX_SEQUENCE = (1L << SEQUENCE_BITS) - 1;
    static final String WORKER_COUNTER_KEY = "seckill:id:worker-counter";

    private final long workerId;
    private final Clock clock;
    private long lastMillis = -1;
    private long sequence;

    @Autowired
    IdGenerator(RedissonClient redisson, Clock clock) {
        this(redisson.getAtomicLong(WORKER_COUNTER_KEY).incrementAndGet() & MAX_WORKER, clock);
        log.info("Id generator worker id {}", workerId);
    }

    IdGenerator(long workerId, Clock clock) {
        if (workerId < 0 || workerId > MAX_WORKER) {
            throw new IllegalArgumentException("worker id out of range: " + workerId);
        }
        this.workerId = workerId;
        this.clock = clock;
    }

    public synchronized long next() {
        long now = clock.millis();
        // If the clock steps back, keep issuing from the last time seen: ids stay unique and ordered.
        if (now <= lastMillis) {
            now = lastMillis;
            sequence = (sequence + 1) & MAX_SEQUENCE;
            if (sequence == 0) {
                now = lastMillis + 1; // this millisecond is used up: borrow the next one
            }
        } else {
            sequence = 0;
        }
        lastMillis = now;
        return ((now - EPOCH_MILLIS) << (WORKER_BITS + SEQUENCE_BITS)) | (workerId << SEQUENCE_BITS) | sequence;
    }

    /** When an id was issued (to the millisecond). */
    public static Instant issuedAt(long id) {
        return Instant.ofEpochMilli((id >>> (WORKER_BITS + SEQUENCE_BITS)) + EPOCH_MILLIS);
    }

    long workerId() {
        return workerId;
    }
}
