package dev.seckill.sale.stream;

import dev.seckill.sale.Ticker;

import java.time.Duration;

/** A ticker that moves only when told to; starts near the overflow of a long, like nanoTime may. */
public final class FakeTicker implements Ticker {

    private long now;

    public FakeTicker(long start) {
        this.now = start;
    }

    @Override
    public long nanos() {
        return now;
    }

    public void advance(Duration by) {
        now += by.toNanos();
    }
}
