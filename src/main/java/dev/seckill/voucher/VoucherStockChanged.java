package dev.seckill.voucher;

/**
 * Published after a voucher was created or re-stocked, MySQL committed and the Redis counter set.
 *
 * @param ordersDeleted the reset also deleted the voucher's orders: a fresh sale
 */
public record VoucherStockChanged(long voucherId, boolean ordersDeleted) {
}
