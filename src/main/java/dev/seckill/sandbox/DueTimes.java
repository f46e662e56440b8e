package dev.seckill.sandbox;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.random.RandomGenerator;

/**
 * When the notifications of one action fall due: each a random delay in {@code [min, max]} after it was queued, like
 * a provider's queue that is always a little behind. The delays are handed out in ascending order, 1 ms apart at
 * least so that the order is unambiguous; out of order, in descending order, so the last event of the action
 * (e.g. {@code payment.succeeded}) is due before the first ({@code payment.processing}).
 */
final class DueTimes {

    private static final Duration STEP = Duration.ofMillis(1);

    private final Duration min;
    private final Duration max;
    private final boolean outOfOrder;
    private final RandomGenerator random;

    DueTimes(Duration min, Duration max, boolean outOfOrder, RandomGenerator random) {
        this.min = min;
        this.max = max;
        this.outOfOrder = outOfOrder;
        this.random = random;
    }

    /** The delay of each of {@code count} events, in the order the events happened. */
    List<Duration> delays(int count) {
        List<Duration> delays = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            delays.add(one());
        }
        Collections.sort(delays);
        for (int i = 1; i < count; i++) {
            if (delays.get(i).compareTo(delays.get(i - 1)) <= 0) {
                delays.set(i, delays.get(i - 1).plus(STEP));
            }
        }
        if (outOfOrder) {
            Collections.reverse(delays);
        }
        return delays;
    }

    /** One delay in {@code [min, max]}, to the millisecond. */
    Duration one() {
        long spread = max.toMillis() - min.toMillis();
        return spread <= 0 ? min : min.plusMillis(random.nextLong(spread + 1));
    }
}
