package dev.seckill.salestate;

/**
 * A voucher's counter was written anew (a new voucher, a stock reset): the stock may be back, so every
 * instance's sold-out flag for it goes (the sale's {@code SoldOutFlags}). Published by {@link StockCache}.
 */
public record StockCounterWritten(long voucherId) {
}
