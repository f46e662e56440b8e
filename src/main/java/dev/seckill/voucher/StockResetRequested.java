package dev.seckill.voucher;

/**
 * Published, under the voucher's lock, before a stock reset touches anything. A listener that throws
 * a {@link dev.seckill.web.SeckillProblem} refuses the reset (e.g. orders still on their way to MySQL).
 */
public record StockResetRequested(long voucherId) {
}
