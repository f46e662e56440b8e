package dev.seckill.sale;

/**
 * A monotonic time source for the consumers' timers (polling, claiming, retry-later, back-off) and the backlog's
 * refresh. Never the wall clock: stepped back by NTP or an operator, it would hold every timer until it caught up
 * again, and reclaiming a dead instance's orders would stall meanwhile. Injectable, so tests move time.
 */
@FunctionalInterface
public interface Ticker {

    Ticker SYSTEM = System::nanoTime;

    /** Nanoseconds from an arbitrary origin; only differences mean anything (compare with {@link #reached}). */
    long nanos();

    /** Whether {@code now} is at or past {@code due}; safe across the overflow of {@code System.nanoTime()}. */
    static boolean reached(long now, long due) {
        return now - due >= 0;
    }
}
