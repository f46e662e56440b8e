package dev.seckill.shutdown;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * A task run again and again with a fixed delay on a daemon thread of its own, for a {@code SmartLifecycle}
 * that starts and stops it in its phase ({@link ShutdownOrder}): started, it waits {@code every} before the
 * first run; stopped, it interrupts a run in progress and runs no more.
 */
public final class PeriodicTask {

    private final String threadName;
    private final Duration every;
    private final Runnable task;
    private ScheduledExecutorService timer;

    public PeriodicTask(String threadName, Duration every, Runnable task) {
        this.threadName = threadName;
        this.every = every;
        this.task = task;
    }

    public synchronized void start() {
        timer = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, threadName);
            thread.setDaemon(true);
            return thread;
        });
        timer.scheduleWithFixedDelay(task, every.toMillis(), every.toMillis(), TimeUnit.MILLISECONDS);
    }

    public synchronized void stop() {
        if (timer != null) {
            timer.shutdownNow();
            timer = null;
        }
    }

    public synchronized boolean isRunning() {
        return timer != null;
    }
}
