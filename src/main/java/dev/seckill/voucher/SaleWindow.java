package dev.seckill.voucher;

import java.time.Instant;

import dev.seckill.web.ProblemCode;
import dev.seckill.web.SeckillProblem;

/** When a voucher can be bought: from {@code begin} inclusive to {@code end} exclusive. */
public record SaleWindow(Instant begin, Instant end) {

    public void requireOpenAt(Instant now) {
        if (now.isBefore(begin)) {
            throw new SeckillProblem(ProblemCode.SALE_NOT_STARTED, "The sale starts at " + begin);
        }
        if (!now.isBefore(end)) {
            throw new SeckillProblem(ProblemCode.SALE_ENDED, "The sale ended at " + end);
        }
    }
}
