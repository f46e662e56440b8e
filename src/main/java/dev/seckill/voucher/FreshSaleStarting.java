package dev.seckill.voucher;

/**
 * Published inside a stock reset's transaction when the reset starts the sale afresh (its orders are
 * deleted): the order module, which alone writes {@code voucher_order}, deletes them in that transaction,
 * before the reset counts what is left.
 */
public record FreshSaleStarting(long voucherId) {
}
