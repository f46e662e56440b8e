package dev.seckill.id;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The id worker lease's own daemon thread ("id-worker-lease"), running one renewal round at a fixed
 * delay. Its own thread, so a renewal never waits behind other scheduled work and never holds it up.
 */
final class LeaseRenewalThread {

    private final ScheduledExecutorService executor;

    private LeaseRenewalThread(ScheduledExecutorService executor) {
        this.executor = executor;
    }

    /** {@code round} must not throw: a scheduled task that throws is silently never run again. */
    static LeaseRenewalThread start(Runnable round, Duration every) {
        ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread thread = new Thread(r, "id-worker-lease");
            thread.setDaemon(true);
            return thread;
        });
        // A fixed delay is timed by the monotonic clock (System.nanoTime): wall-clock steps neither
        // bunch up nor skip renewals.
        long nanos = every.toNanos();
        executor.scheduleWithFixedDelay(round, nanos, nanos, TimeUnit.NANOSECONDS);
        return new LeaseRenewalThread(executor);
    }

    /** Runs no more rounds; waits up to 5 s for one under way, so the lease is released after it. */
    void stop() {
        executor.shutdownNow();
        try {
            executor.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
