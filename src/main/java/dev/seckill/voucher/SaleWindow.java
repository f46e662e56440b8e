package dev.seckill.voucher;

import java.time.Duration;
import java.time.Instant;

import dev.seckill.refusal.Reason;
import dev.seckill.refusal.Refusal;

/**
 * When a voucher can be bought: from {@code begin} inclusive to {@code end} exclusive; how much work a
 * shopper's browser does for a purchase ticket ({@code challengeDifficulty}: null for the instances' default,
 * 0 for none; see dev.seckill.sale.ticket); and how long each of its orders waits for its payment
 * ({@code paymentWindow}: null only for a voucher created before the window was the voucher's, whose orders get
 * the instances' {@code seckill.payment.window}); and its waiting room ({@code room}: null for none). Fixed when the
 * voucher is created.
 */
public record SaleWindow(Instant begin, Instant end, Integer challengeDifficulty, Duration paymentWindow,
        WaitingRoom room) {

    public SaleWindow(Instant begin, Instant end) {
        this(begin, end, null, null, null);
    }

    public SaleWindow(Instant begin, Instant end, Integer challengeDifficulty) {
        this(begin, end, challengeDifficulty, null, null);
    }

    public SaleWindow(Instant begin, Instant end, Integer challengeDifficulty, Duration paymentWindow) {
        this(begin, end, challengeDifficulty, paymentWindow, null);
    }

    public boolean hasRoom() {
        return room != null;
    }

    public void requireOpenAt(Instant now) {
        if (now.isBefore(begin)) {
            // Retry-After: when to come back, so a client (the buy page's countdown) need not poll.
            long secondsLeft = Math.max(1, Duration.between(now, begin).plusMillis(999).toSeconds());
            throw new Refusal(Reason.SALE_NOT_STARTED, "The sale starts at " + begin + ", in " + secondsLeft + " s",
                    secondsLeft, 0);
        }
        if (!now.isBefore(end)) {
            throw new Refusal(Reason.SALE_ENDED, "The sale ended at " + end);
        }
    }
}
