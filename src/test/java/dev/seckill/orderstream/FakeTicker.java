package dev.seckill.orderstream;

import java.time.Duration;

/** A ticker that moves only when told to; starts near the overflow of a long, like nanoTime may. */
final class FakeTicker implements Ticker {

    private long now;

    FakeTicker(long start) {
        this.now = start;
    }

    @Override
    public long nanos() {
        return now;
    }

    void advance(Duration by) {
        now += by.toNanos();
    }
}
