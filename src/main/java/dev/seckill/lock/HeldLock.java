package dev.seckill.lock;

import org.redisson.api.RLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** A Redisson lock this thread holds; closing it releases it (use try-with-resources). */
public final class HeldLock implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(HeldLock.class);

    private final RLock lock;

    HeldLock(RLock lock) {
        this.lock = lock;
    }

    @Override
    public void close() {
        try {
            lock.unlock();
        } catch (IllegalMonitorStateException e) {
            // The lease ran out before we finished: someone else may already hold it. Correctness
            // does not depend on it (the database refuses a second order and an oversell), but a
            // lease this short for the work done is a setting to fix.
            log.warn("Lock {} expired before it was released; raise its lease time", lock.getName());
        }
    }
}
