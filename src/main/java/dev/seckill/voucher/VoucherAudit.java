package dev.seckill.voucher;

/**
 * Whether a sale added up. {@code consistent} holds when no shopper bought twice, nothing was oversold,
 * every unit that left MySQL's stock is an order, and Redis agrees with MySQL.
 *
 * @param redisStock null when Redis holds no counter for the voucher
 */
record VoucherAudit(long voucherId, int initialStock, int dbStock, Long redisStock, long orders, long distinctBuyers,
        long duplicateBuyers, long oversold, boolean consistent) {

    static VoucherAudit of(long voucherId, int initialStock, int dbStock, Long redisStock, long orders,
            long distinctBuyers, long duplicateBuyers) {
        long oversold = Math.max(0, orders - initialStock) + Math.max(0, -dbStock);
        boolean consistent = duplicateBuyers == 0 && oversold == 0 && orders == (long) initialStock - dbStock
                && redisStock != null && redisStock == dbStock;
        return new VoucherAudit(voucherId, initialStock, dbStock, redisStock, orders, distinctBuyers,
                duplicateBuyers, oversold, consistent);
    }
}
