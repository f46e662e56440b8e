package dev.seckill.support;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import dev.seckill.salestate.HeldLock;

/**
 * Holds a Redisson lock from another thread (Redisson locks belong to the thread that took them) until
 * closed: what another request, consumer or give-up holding it looks like to the code under test.
 */
public class LockHeldElsewhere implements AutoCloseable {

    private final ExecutorService holder = Executors.newSingleThreadExecutor();
    private final CountDownLatch release = new CountDownLatch(1);

    LockHeldElsewhere(Supplier<HeldLock> take, String what) throws InterruptedException {
        CountDownLatch locked = new CountDownLatch(1);
        holder.submit(() -> {
            try (HeldLock held = take.get()) {
                locked.countDown();
                release.await(30, TimeUnit.SECONDS);
            }
            return null;
        });
        if (!locked.await(15, TimeUnit.SECONDS)) {
            throw new IllegalStateException("could not take " + what);
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
