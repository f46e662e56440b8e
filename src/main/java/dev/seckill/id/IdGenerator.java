package dev.seckill.id;

import java.time.Clock;
import java.time.Instant;
import java.util.function.LongSupplier;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;

/**
 * Time-ordered 64-bit ids (snowflake layout): 41 bits of milliseconds since 2026-01-01, 10 bits of
 * worker number, 12 bits of sequence. Instances never coordinate on the hot path: uniqueness rests
 * on each instance issuing only under a worker number it has leased from MySQL
 * ({@link WorkerLeaseKeeper}), and only inside the millisecond range that lease allows:
 * <ul>
 *   <li>from the floor: one past the highest millisecond any earlier holder of the number may have
 *       used (the lease row's {@code issued_until} when this instance took it);</li>
 *   <li>up to the ceiling: the {@code issued_until} this instance has itself written to the row.
 *       A later holder starts after it, so even a holder that does not yet know it lost its lease
 *       cannot issue an id the new holder also issues;</li>
 *   <li>while the lease is still valid by this instance's monotonic clock (it stops before the
 *       database would let anyone else take the number).</li>
 * </ul>
 * Outside of that, {@link #next()} throws {@link IdsUnavailableException} instead of risking a duplicate.
 */
@Component
public class IdGenerator {

    static final long EPOCH_MILLIS = Instant.parse("2026-01-01T00:00:00Z").toEpochMilli();
    static final int WORKER_BITS = 10;
    static final int SEQUENCE_BITS = 12;
    static final long MAX_WORKER = (1L << WORKER_BITS) - 1;
    static final long MAX_SEQUENCE = (1L << SEQUENCE_BITS) - 1;
    static final long NO_WORKER = -1;

    private final Clock clock;
    private final LongSupplier nanoTicker;

    // All guarded by this. A lease: the worker number and the millisecond range it allows.
    private long workerId = NO_WORKER;
    private long floorMillis;
    private long ceilingMillis;
    private long validUntilNanos;
    private boolean leaseExpires;
    // Within one lease: the last millisecond issued in and the sequence used in it.
    private long lastMillis;
    private long sequence;

    @Autowired
    IdGenerator(Clock clock) {
        this(clock, System::nanoTime);
    }

    /** Issues nothing until {@link #startLease} is called. */
    IdGenerator(Clock clock, LongSupplier nanoTicker) {
        this.clock = clock;
        this.nanoTicker = nanoTicker;
    }

    /** A fixed worker number that never expires, for tests that are not about leases. */
    IdGenerator(long workerId, Clock clock) {
        this(clock, System::nanoTime);
        checkWorker(workerId);
        this.workerId = workerId;
        this.floorMillis = 0;
        this.ceilingMillis = Long.MAX_VALUE;
        this.leaseExpires = false;
        this.lastMillis = -1;
    }

    public synchronized long next() {
        if (workerId == NO_WORKER) {
            throw new IdsUnavailableException("This instance holds no id worker number right now");
        }
        if (leaseExpires && nanoTicker.getAsLong() - validUntilNanos >= 0) {
            throw new IdsUnavailableException("The id worker lease of this instance was not renewed in time");
        }
        long now = Math.max(clock.millis(), floorMillis);
        long seq = 0;
        // If the clock steps back, keep issuing from the last time seen: ids stay unique and ordered.
        if (now <= lastMillis) {
            now = lastMillis;
            seq = (sequence + 1) & MAX_SEQUENCE;
            if (seq == 0) {
                now = lastMillis + 1; // this millisecond is used up: borrow the next one
            }
        }
        if (now > ceilingMillis) {
            // Only if the clock jumped forward past the lease's margin, or a whole lease's worth of
            // milliseconds was borrowed: the next renewal raises the ceiling.
            throw new IdsUnavailableException("Ids would pass the high-water mark stored with the id worker lease");
        }
        lastMillis = now;
        sequence = seq;
        return ((now - EPOCH_MILLIS) << (WORKER_BITS + SEQUENCE_BITS)) | (workerId << SEQUENCE_BITS) | seq;
    }

    /** When an id was issued (to the millisecond). */
    public static Instant issuedAt(long id) {
        return Instant.ofEpochMilli((id >>> (WORKER_BITS + SEQUENCE_BITS)) + EPOCH_MILLIS);
    }

    /**
     * Starts issuing under a newly leased worker number.
     *
     * @param previousIssuedUntil the lease row's high-water mark when this instance took the number
     * @param ceiling             the high-water mark this instance has since written to the row
     * @param validUntilNanos     by {@code nanoTicker}: when the lease runs out unless renewed
     */
    synchronized void startLease(long workerId, long previousIssuedUntil, long ceiling, long validUntilNanos) {
        checkWorker(workerId);
        this.workerId = workerId;
        this.floorMillis = previousIssuedUntil + 1;
        this.ceilingMillis = ceiling;
        this.validUntilNanos = validUntilNanos;
        this.leaseExpires = true;
        this.lastMillis = -1;
        this.sequence = 0;
    }

    /** The high-water mark to write at the next renewal: past anything issued yet, plus a margin. */
    synchronized long nextCeiling(long marginMillis) {
        long issuedOrNow = Math.max(Math.max(clock.millis(), lastMillis), floorMillis);
        return Math.max(ceilingMillis, issuedOrNow + marginMillis);
    }

    /** The renewal that wrote {@code ceiling} succeeded; ignored if the lease changed meanwhile. */
    synchronized void renewed(long workerId, long ceiling, long validUntilNanos) {
        if (this.workerId == workerId) {
            this.ceilingMillis = Math.max(this.ceilingMillis, ceiling);
            this.validUntilNanos = validUntilNanos;
        }
    }

    /**
     * Stops issuing under this worker number (the lease was lost, or is being released).
     *
     * @return the highest millisecond actually issued under the lease (its floor - 1 if none), or
     *         {@link Long#MIN_VALUE} if this generator did not hold {@code workerId}
     */
    synchronized long stopLease(long workerId) {
        if (this.workerId != workerId) {
            return Long.MIN_VALUE;
        }
        this.workerId = NO_WORKER;
        return Math.max(lastMillis, floorMillis - 1);
    }

    /** The worker number issued under now, or {@link #NO_WORKER}. */
    synchronized long workerId() {
        return workerId;
    }

    private static void checkWorker(long workerId) {
        if (workerId < 0 || workerId > MAX_WORKER) {
            throw new IllegalArgumentException("worker id out of range: " + workerId);
        }
    }
}
