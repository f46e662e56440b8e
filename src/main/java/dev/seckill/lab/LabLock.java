package dev.seckill.lab;

import java.time.Duration;

/** One strategy's lock on one run's lock name, seen from one holder's process. */
interface LabLock {

    /** The lock, or null when it could not be had within {@code wait}. */
    Hold acquire(Duration wait) throws InterruptedException;
}
