package dev.seckill.lock;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import dev.seckill.refusal.Reason;
import dev.seckill.refusal.Refusal;
import org.redisson.api.RLock;
import org.redisson.api.RedissonClient;
import org.springframework.stereotype.Component;

/**
 * The two Redisson locks of the seckill path, named and timed from {@link LockSettings}. None takes a
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
     * Takes, without waiting, the locks of these shoppers for this voucher, all in one pipelined round;
     * shoppers whose lock is held elsewhere are simply left out of the result.
     */
    public HeldShopperLocks tryLockShoppers(long voucherId, Collection<Long> shopperIds) {
        long owner = Thread.currentThread().getId();
        Map<Long, RLock> locks = new LinkedHashMap<>();
        Map<Long, CompletableFuture<Boolean>> attempts = new LinkedHashMap<>();
        for (long shopperId : new LinkedHashSet<>(shopperIds)) {
            RLock lock = redisson.getLock(shopperLockName(voucherId, shopperId));
            locks.put(shopperId, lock);
            attempts.put(shopperId, lock.tryLockAsync(0, WATCHDOG, TimeUnit.MILLISECONDS, owner)
                    .toCompletableFuture());
        }
        CompletableFuture.allOf(attempts.values().toArray(CompletableFuture[]::new)).join();
        Map<Long, RLock> held = new LinkedHashMap<>();
        attempts.forEach((shopperId, attempt) -> {
            if (Boolean.TRUE.equals(attempt.join())) {
                held.put(shopperId, locks.get(shopperId));
            }
        });
        return new HeldShopperLocks(held, owner, meters);
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
