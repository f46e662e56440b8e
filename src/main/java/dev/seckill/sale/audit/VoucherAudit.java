package dev.seckill.sale.audit;

import java.time.Instant;

/**
 * Whether a sale added up. {@code consistent} holds when no shopper bought twice, nothing was oversold,
 * every unit that left MySQL's stock is held by an order awaiting payment or paid (the stock put on sale is
 * {@code unitsHeld + dbStock}: a returned unit was sold again at most once), no order a fresh sale deleted is back, Redis
 * agrees with MySQL once the orders
 * still on their way (async path), the units held by sync requests and the returns Redis has not taken yet are counted
 * ({@code redisStock == dbStock - pendingOrders - syncUnitsInFlight - returnsOwed}), and Redis has not
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
 * @param lifecycle     the orders in MySQL by state, and the units the ended ones gave back
 * @param redisFailedOver Redis's master changed while this voucher existed: the new one may have lacked orders
 * @param redisFailoverAt when the latest such failover was detected, or null
 * @param failover      what the instances found when they replayed their accepted orders into the new master, or
 *                      null without a failover. The sale is whole only if every instance alive then replayed and none
 *                      was lost or resold: an instance that died with the master took its journal with it
 * @param revivedOrders orders in MySQL that a stock reset deleting the orders (a fresh sale) had deleted: back from
 *                      the sale it ended (a failover's replay, a write of the old sale still on its way). Never
 *                      consistent then, however well the numbers add up: the admin removed them
 */
public record VoucherAudit(long voucherId, int initialStock, int dbStock, Long redisStock, long orders, long distinctBuyers,
        long duplicateBuyers, long oversold, long pendingOrders, long syncUnitsInFlight, long failedOrders,
        long deadLetters, boolean redisAgrees, boolean redisDataLost, Instant redisDataLostAt, boolean redisFailedOver,
        Instant redisFailoverAt, Failover failover, long revivedOrders, boolean consistent, Lifecycle lifecycle) {

    /**
     * The failovers since the voucher was created, from the instances' replays.
     *
     * @param allReplayed every instance alive at each failover replayed what it had accepted just before
     * @param reapplied   accepted orders the new master lacked, put back
     * @param lost        accepted orders that could not be put back: answered 202 and gone
     * @param resold      orders in MySQL whose unit the new master sold again: a later order was refused by MySQL
     * @param voided      accepted orders of a sale started afresh since (a stock reset deleted them): left out, as
     *                    the admin meant
     */
    public record Failover(boolean allReplayed, long reapplied, long lost, long resold, long voided) {

        boolean accountedFor() {
            return allReplayed && lost == 0 && resold == 0;
        }
    }

    /**
     * After the click. Units held ({@code awaitingPayment + paid}) plus MySQL's stock is the stock put on sale; an
     * expired, cancelled or refunded order gave its unit back, to MySQL in the transaction that ended it and to Redis
     * once per order right after.
     *
     * @param unitsReturnedToRedis orders whose unit the Redis counter took back (its set of returned orders)
     * @param returnsOwed          ended orders whose unit MySQL took back and Redis not yet (normally for
     *                             milliseconds; longer while Redis is out of reach)
     */
    public record Lifecycle(long awaitingPayment, long paid, long expired, long cancelled, long refunded,
            long unitsReturnedToRedis, long returnsOwed) {

        public static Lifecycle of(dev.seckill.order.OrdersByVoucher.Lifecycle mysql, long unitsReturnedToRedis, long returnsOwed) {
            return new Lifecycle(mysql.awaitingPayment(), mysql.paid(), mysql.expired(), mysql.cancelled(),
                    mysql.refunded(), unitsReturnedToRedis, returnsOwed);
        }

        /** Every order holding its unit (a sale nobody paid for, cancelled or let expire yet). */
        static Lifecycle allHolding(long orders) {
            return new Lifecycle(orders, 0, 0, 0, 0, 0, 0);
        }

        public long unitsHeld() {
            return awaitingPayment + paid;
        }

        public long unitsReturned() {
            return expired + cancelled + refunded;
        }
    }

    static VoucherAudit of(long voucherId, int initialStock, int dbStock, Long redisStock, long orders,
            long distinctBuyers, long duplicateBuyers, long pendingOrders, long syncUnitsInFlight, long failedOrders,
            long deadLetters, Instant redisDataLostAt) {
        return of(voucherId, initialStock, dbStock, redisStock, orders, distinctBuyers, duplicateBuyers, pendingOrders,
                syncUnitsInFlight, failedOrders, deadLetters, redisDataLostAt, 0);
    }

    static VoucherAudit of(long voucherId, int initialStock, int dbStock, Long redisStock, long orders,
            long distinctBuyers, long duplicateBuyers, long pendingOrders, long syncUnitsInFlight, long failedOrders,
            long deadLetters, Instant redisDataLostAt, long settling) {
        return of(voucherId, initialStock, dbStock, redisStock, orders, distinctBuyers, duplicateBuyers, pendingOrders,
                syncUnitsInFlight, failedOrders, deadLetters, redisDataLostAt, settling, Lifecycle.allHolding(orders));
    }

    static VoucherAudit of(long voucherId, int initialStock, int dbStock, Long redisStock, long orders,
            long distinctBuyers, long duplicateBuyers, long pendingOrders, long syncUnitsInFlight, long failedOrders,
            long deadLetters, Instant redisDataLostAt, long settling, Lifecycle lifecycle) {
        return of(voucherId, initialStock, dbStock, redisStock, orders, distinctBuyers, duplicateBuyers, pendingOrders,
                syncUnitsInFlight, failedOrders, deadLetters, redisDataLostAt, settling, lifecycle, null, null, 0);
    }

    /**
     * @param settling pending orders and sync units whose order MySQL has already committed (acknowledged or
     *                 settled a moment later): MySQL's stock counts them, so Redis's must not count them again
     */
    static VoucherAudit of(long voucherId, int initialStock, int dbStock, Long redisStock, long orders,
            long distinctBuyers, long duplicateBuyers, long pendingOrders, long syncUnitsInFlight, long failedOrders,
            long deadLetters, Instant redisDataLostAt, long settling, Lifecycle lifecycle, Instant redisFailoverAt,
            Failover failover, long revivedOrders) {
        long held = lifecycle.unitsHeld();
        long oversold = Math.max(0, held - initialStock) + Math.max(0, -dbStock);
        boolean redisAgrees = redisStock != null
                && redisStock == dbStock - (pendingOrders + syncUnitsInFlight - settling) - lifecycle.returnsOwed();
        boolean consistent = duplicateBuyers == 0 && oversold == 0 && held == (long) initialStock - dbStock
                && redisAgrees && redisDataLostAt == null && (failover == null || failover.accountedFor())
                && revivedOrders == 0;
        return new VoucherAudit(voucherId, initialStock, dbStock, redisStock, orders, distinctBuyers,
                duplicateBuyers, oversold, pendingOrders, syncUnitsInFlight, failedOrders, deadLetters, redisAgrees,
                redisDataLostAt != null, redisDataLostAt, redisFailoverAt != null, redisFailoverAt, failover, revivedOrders,
                consistent, lifecycle);
    }
}
