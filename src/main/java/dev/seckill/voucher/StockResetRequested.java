package dev.seckill.voucher;

/**
 * Published under the voucher's lock and its reset fence, before a stock reset changes MySQL: no order
 * can take a unit meanwhile, so listeners see the voucher's Redis state hold still (e.g. the sync path
 * settles the units of orders already committed).
 */
public record StockResetRequested(long voucherId) {
}
