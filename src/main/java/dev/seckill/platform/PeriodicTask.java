package dev.seckill.platform;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * A bean that runs {@link #runOnce} again and again with a fixed delay on a daemon thread of its own, started
 * and stopped in its phase ({@link ShutdownOrder}): started, it waits {@code every} before the first run;
 * stopped, it interrupts a run in progress and runs no more. A run that throws is an outage (Redis or MySQL
 * out of reach) that is reported elsewhere: it is logged at debug and the next run tries again.
 */
public abstract class PeriodicTask implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(PeriodicTask.class);

    private final String threadName;
    private final Duration every;
    private final int phase;
    private ScheduledExecutorService timer;

    protected PeriodicTask(String threadName, Duration every, int phase) {
        this.threadName = threadName;
        this.every = every;
        this.phase = phase;
    }

    /** One run of the task. */
    protected abstract void runOnce();

    /** One run now, on the caller's thread, with the same tolerance of outages as the scheduled runs. */
    protected final void runQuietly() {
        try {
            runOnce();
        } catch (RuntimeException e) {
            log.debug("{}: skipped this time: {}", threadName, e.toString());
        }
    }

    @Override
    public synchronized void start() {
        timer = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, threadName);
            thread.setDaemon(true);
            return thread;
        });
        timer.scheduleWithFixedDelay(this::runQuietly, every.toMillis(), every.toMillis(), TimeUnit.MILLISECONDS);
    }

    @Override
    public synchronized void stop() {
        if (timer != null) {
            timer.shutdownNow();
            timer = null;
        }
    }

    @Override
    public synchronized boolean isRunning() {
        return timer != null;
    }

    @Override
    public final int getPhase() {
        return phase;
    }
}
