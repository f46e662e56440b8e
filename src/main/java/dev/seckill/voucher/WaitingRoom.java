package dev.seckill.voucher;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A voucher's waiting room (dev.seckill.sale.room), fixed when the voucher is created: who joins within
 * {@code arrivalWindow} of the sale's opening gets a place by a lottery drawn from {@code seed}; later arrivals queue
 * behind; places are let in {@code admissionsPerSecond} at a time.
 *
 * @param seed 32 random bytes in lowercase hex: the lottery's secret until the draw, published after it
 */
public record WaitingRoom(Duration arrivalWindow, int admissionsPerSecond, String seed) {

    private static final Pattern SEED = Pattern.compile("[0-9a-f]{64}");

    public WaitingRoom {
        Objects.requireNonNull(arrivalWindow, "arrivalWindow");
        if (arrivalWindow.isNegative() || arrivalWindow.isZero()) {
            throw new IllegalArgumentException("not an arrival window: " + arrivalWindow);
        }
        if (admissionsPerSecond <= 0) {
            throw new IllegalArgumentException("not an admission rate: " + admissionsPerSecond);
        }
        if (seed == null || !SEED.matcher(seed).matches()) {
            throw new IllegalArgumentException("a seed is 64 lowercase hex digits");
        }
    }

    /** When the arrival window of a sale opening at {@code opening} closes: the lottery is drawn then. */
    public Instant drawAt(Instant opening) {
        return opening.plus(arrivalWindow);
    }

    /** Without the seed: a room is logged and compared in tests, and its seed is a secret until the draw. */
    @Override
    public String toString() {
        return "WaitingRoom[arrivalWindow=" + arrivalWindow + ", admissionsPerSecond=" + admissionsPerSecond + "]";
    }
}
