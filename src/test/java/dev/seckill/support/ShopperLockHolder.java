package dev.seckill.support;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import dev.seckill.lock.HeldLock;
import dev.seckill.lock.SeckillLocks;

/**
 * Holds a shopper's lock from another thread (Redisson locks belong to the thread that took them)
 * until closed: the way to freeze "another request of this shopper is in flight" in a test.
 */
public final class ShopperLockHolder implements AutoCloseable {

    private final ExecutorService holder = Executors.newSingleThreadExecutor();
    private final CountDownLatch release = new CountDownLatch(1);

    public ShopperLockHolder(SeckillLocks locks, long voucherId, long shopperId) throws InterruptedException {
        CountDownLatch locked = new CountDownLatch(1);
        holder.submit(() -> {
            try (HeldLock held = locks.lockShopper(voucherId, shopperId)) {
                locked.countDown();
                release.await(30, TimeUnit.SECONDS);
            }
            return null;
        });
        if (!locked.await(10, TimeUnit.SECONDS)) {
            throw new IllegalStateException("could not take the shopper's lock");
        }
    }

    @Override
    public void close() throws InterruptedException {
        release.countDown();
        holder.shutdown();
        if (!holder.awaitTermination(10, TimeUnit.SECONDS)) {
            throw new IllegalStateException("the lock holder did not finish");
        }
    }
}
