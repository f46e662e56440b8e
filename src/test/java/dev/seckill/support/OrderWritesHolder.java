package dev.seckill.support;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import dev.seckill.lock.HeldLock;
import dev.seckill.lock.SeckillLocks;

/**
 * Holds a voucher's order-writes lock alone, from another thread (Redisson locks belong to the thread that
 * took them), until closed: what a give-up deciding looks like to the consumers, and the way to keep a
 * voucher's accepted orders pending in a test.
 */
public final class OrderWritesHolder implements AutoCloseable {

    private final ExecutorService holder = Executors.newSingleThreadExecutor();
    private final CountDownLatch release = new CountDownLatch(1);

    public OrderWritesHolder(SeckillLocks locks, long voucherId) throws InterruptedException {
        CountDownLatch locked = new CountDownLatch(1);
        holder.submit(() -> {
            try (HeldLock held = locks.lockOrderWritesExclusively(voucherId)
                    .orElseThrow(() -> new IllegalStateException("the voucher's order writes did not pause"))) {
                locked.countDown();
                release.await(30, TimeUnit.SECONDS);
            }
            return null;
        });
        if (!locked.await(15, TimeUnit.SECONDS)) {
            throw new IllegalStateException("could not hold the voucher's order writes");
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
