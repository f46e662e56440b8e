package dev.seckill.audit;

import java.time.Instant;

/**
 * Whether a sale added up. {@code consistent} holds when no shopper bought twice, nothing was oversold,
 * every unit that left MySQL's stock is an order, Redis agrees with MySQL once the orders still on
 * their way (async path) and the units held by sync requests are counted
 * ({@code redisStock == dbStock - pendingOrders - syncUnitsInFlight}), and Redis has not
 * lost its data since the voucher was created: orders it held then are gone without a trace, so no count
 * can prove the sale whole any more.
 *
 * @param redisStock    null when Redis holds no counter for the voucher (lost: see reconcile)
 * @param pendingOrders accepted by the async path and not acknowledged yet (not in MySQL yet, or committed a
 *                      moment ago: the audit counts those once, in MySQL)
 * @param syncUnitsInFlight units the sync path took for requests that have not committed or given them back
 *                      yet (a dead request's unit counts until the sweeper settles or returns it)
 * @param failedOrders  given up after their retries: compensated (stock returned), or refused as a
 *                      duplicate of the shopper's confirmed order (its unit stays sold, the dead letter says
 *                      compensated 0)
 * @param deadLetters   entries in the voucher's dead-letter stream
 * @param redisAgrees   Redis stock matches MySQL stock minus pending orders and sync units in flight
 * @param redisDataLost Redis lost its data while this voucher existed: accepted orders may be missing
 * @param redisDataLostAt when the latest such loss was detected, or null
 */
public record VoucherAudit(long voucherId, int initialStock, int dbStock, Long redisStock, long orders, long distinctBuyers,
        long duplicateBuyers, long oversold, long pendingOrders, long syncUnitsInFlight, long failedOrders,
        long deadLetters, boolean redisAgrees, boolean redisDataLost, Instant redisDataLostAt, boolean consistent) {

    static VoucherAudit of(long voucherId, int initialStock, int dbStock, Long redisStock, long orders,
            long distinctBuyers, long duplicateBuyers, long pendingOrders, long syncUnitsInFlight, long failedOrders,
            long deadLetters, Instant redisDataLostAt) {
        return of(voucherId, initialStock, dbStock, redisStock, orders, distinctBuyers, duplicateBuyers, pendingOrders,
                syncUnitsInFlight, failedOrders, deadLetters, redisDataLostAt, 0);
    }

    /**
     * @param settling pending orders and sync units whose order MySQL has already committed (acknowledged or
     *                 settled a moment later): MySQL's stock counts them, so Redis's must not count them again
     */
    static VoucherAudit of(long voucherId, int initialStock, int dbStock, Long redisStock, long orders,
            long distinctBuyers, long duplicateBuyers, long pendingOrders, long syncUnitsInFlight, long failedOrders,
            long deadLetters, Instant redisDataLostAt, long settling) {
        long oversold = Math.max(0, orders - initialStock) + Math.max(0, -dbStock);
        boolean redisAgrees = redisStock != null
                && redisStock == dbStock - (pendingOrders + syncUnitsInFlight - settling);
        boolean consistent = duplicateBuyers == 0 && oversold == 0 && orders == (long) initialStock - dbStock
                && redisAgrees && redisDataLostAt == null;
        return new VoucherAudit(voucherId, initialStock, dbStock, redisStock, orders, distinctBuyers,
                duplicateBuyers, oversold, pendingOrders, syncUnitsInFlight, failedOrders, deadLetters, redisAgrees,
                redisDataLostAt != null, redisDataLostAt, consistent);
    }
}
