package dev.seckill.salestate;

import java.util.Optional;
import java.util.concurrent.TimeUnit;

import dev.seckill.refusal.Reason;
import dev.seckill.refusal.Refusal;
import org.redisson.api.RLock;
import org.redisson.api.RedissonClient;
import org.springframework.stereotype.Component;

/**
 * The Redisson locks of the seckill path, named and timed from {@link LockSettings}. None takes a
 * lease: the watchdog renews a held lock until it is released or its holder's process dies.
 */
@Component
public class SeckillLocks {

    /** Redisson's "no lease": the lock lives while the watchdog renews it. */
    private static final long WATCHDOG = -1;

    private final RedissonClient redisson;
    private final LockSettings settings;
    private final LockMeters meters;

    SeckillLocks(RedissonClient redisson, LockSettings settings, LockMeters meters) {
        this.redisson = redisson;
        this.settings = settings;
        this.meters = meters;
    }

    /** Never waits: a second concurrent request of the same shopper for the same voucher is refused. */
    public HeldLock lockShopper(long voucherId, long shopperId) {
        RLock lock = redisson.getLock(shopperLockName(voucherId, shopperId));
        long start = System.nanoTime();
        boolean locked = tryLock(lock, 0);
        meters.shopperWaited(System.nanoTime() - start);
        if (!locked) {
            throw new Refusal(Reason.REQUEST_IN_FLIGHT);
        }
        return new HeldLock(lock, meters);
    }

    /** Waits up to the configured time, then refuses with voucher-busy. */
    public HeldLock lockVoucher(long voucherId) {
        RLock lock = redisson.getLock(voucherLockName(voucherId));
        long start = System.nanoTime();
        boolean locked = tryLock(lock, settings.voucherWait().toMillis());
        // Refused waits count too: a voucher-busy after voucher-wait is the longest wait there is.
        meters.voucherWaited(System.nanoTime() - start);
        if (!locked) {
            throw new Refusal(Reason.VOUCHER_BUSY);
        }
        return new HeldLock(lock, meters);
    }

    /**
     * The shared side of a voucher's order-writes lock, without waiting: a consumer holds it while it
     * writes a batch of the voucher's orders to MySQL, alongside every other consumer writing that voucher.
     * Empty while a give-up holds the exclusive side: the batch is left for later.
     *
     * <p>Why one lock per batch and not a lock per shopper: what needs excluding is a
     * give-up (its unit back on sale) while another consumer, holding the same order after a claim, commits
     * it; two writers of one order are harmless (the writer skips what MySQL has, the unique key refuses the
     * rest). A lock per shopper costs two Redisson calls per order; this costs two per batch
     * (docs/benchmarks.md, "Why the order path is shaped so").
     */
    public Optional<HeldLock> tryLockOrderWrites(long voucherId) {
        RLock lock = redisson.getReadWriteLock(orderWritesLockName(voucherId)).readLock();
        return tryLock(lock, 0) ? Optional.of(new HeldLock(lock, meters)) : Optional.empty();
    }

    /**
     * The exclusive side of a voucher's order-writes lock, waiting up to {@code voucher-wait} for the batches
     * being written to finish: held by a give-up while it asks MySQL whether the order is there and, if
     * not, compensates. Empty if the writes did not pause within the wait (the give-up is tried later).
     */
    public Optional<HeldLock> lockOrderWritesExclusively(long voucherId) {
        RLock lock = redisson.getReadWriteLock(orderWritesLockName(voucherId)).writeLock();
        return tryLock(lock, settings.voucherWait().toMillis()) ? Optional.of(new HeldLock(lock, meters)) : Optional.empty();
    }

    String orderWritesLockName(long voucherId) {
        return settings.prefix() + "order-writes:{" + voucherId + "}";
    }

    String shopperLockName(long voucherId, long shopperId) {
        return settings.prefix() + "shopper:{" + voucherId + "}:" + shopperId;
    }

    String voucherLockName(long voucherId) {
        return settings.prefix() + "voucher:{" + voucherId + "}";
    }

    private static boolean tryLock(RLock lock, long waitMillis) {
        try {
            return lock.tryLock(waitMillis, WATCHDOG, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new Refusal(Reason.VOUCHER_BUSY, "Interrupted while waiting for a lock");
        }
    }
}
