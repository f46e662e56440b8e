package dev.seckill.salestate;

import org.redisson.api.RLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** A Redisson lock this thread holds; closing it releases it (use try-with-resources). */
public final class HeldLock implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(HeldLock.class);

    private final RLock lock;
    private final LockMeters meters;

    HeldLock(RLock lock, LockMeters meters) {
        this.lock = lock;
        this.meters = meters;
    }

    @Override
    public void close() {
        try {
            lock.unlock();
        } catch (IllegalMonitorStateException e) {
            // The watchdog stopped renewing it: this process stalled (a pause longer than the watchdog
            // timeout) and someone else may have held it meanwhile. Correctness does not depend on it
            // (the database refuses a second order and an oversell), but it is worth an alarm.
            meters.expiredBeforeRelease();
            log.warn("Lock {} expired before it was released: this process stalled past seckill.lock.watchdog-timeout",
                    lock.getName());
        }
    }
}
