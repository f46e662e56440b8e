package dev.seckill.support;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicLong;

/** A UTC clock that reads the epoch milliseconds a test sets, and moves only when the test moves it (back too). */
public final class SteppingClock extends Clock {

    private final AtomicLong millis;

    public SteppingClock(AtomicLong millis) {
        this.millis = millis;
    }

    /** A clock of its own, at {@code start}. */
    public static SteppingClock at(Instant start) {
        return new SteppingClock(new AtomicLong(start.toEpochMilli()));
    }

    public void set(Instant instant) {
        millis.set(instant.toEpochMilli());
    }

    @Override
    public long millis() {
        return millis.get();
    }

    @Override
    public Instant instant() {
        return Instant.ofEpochMilli(millis.get());
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        return this;
    }
}
