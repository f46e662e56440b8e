package dev.seckill.voucher;

import java.time.Instant;

import dev.seckill.refusal.Reason;
import dev.seckill.refusal.Refusal;

/** When a voucher can be bought: from {@code begin} inclusive to {@code end} exclusive. */
public record SaleWindow(Instant begin, Instant end) {

    public void requireOpenAt(Instant now) {
        if (now.isBefore(begin)) {
            throw new Refusal(Reason.SALE_NOT_STARTED, "The sale starts at " + begin);
        }
        if (!now.isBefore(end)) {
            throw new Refusal(Reason.SALE_ENDED, "The sale ended at " + end);
        }
    }
}
