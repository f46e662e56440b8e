package dev.seckill.sale.audit;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import dev.seckill.sale.durability.RedisDataLosses;
import dev.seckill.sale.failover.RedisFailovers;
import dev.seckill.order.OrdersByVoucher;
import dev.seckill.voucher.VoucherStock;
import dev.seckill.salestate.OrderStates;
import dev.seckill.salestate.StockCache;
import dev.seckill.salestate.UnitReturns;
import dev.seckill.salestate.OrderStates.SaleState;
import dev.seckill.refusal.Reason;
import dev.seckill.refusal.Refusal;
import org.springframework.stereotype.Service;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Reads a voucher's numbers straight from MySQL and Redis, with SQL anyone can re-run by hand. The live numbers
 * beside it show the same stock and order counts every second.
 */
@Service
class AuditService {

    /** A sale still taking orders can move between every pair of reads; after these many tries the audit answers anyway. */
    static final int SETTLE_ATTEMPTS = 10;

    private final OrdersByVoucher orders;
    private final VoucherStock vouchers;
    private final StockCache stock;
    private final OrderStates redis;
    private final RedisDataLosses losses;
    private final RedisFailovers failovers;
    private final UnitReturns returns;
    private final TransactionTemplate snapshot;

    AuditService(OrdersByVoucher orders, VoucherStock vouchers, StockCache stock, OrderStates redis, RedisDataLosses losses,
            RedisFailovers failovers, UnitReturns returns, PlatformTransactionManager transactions) {
        this.failovers = failovers;
        this.orders = orders;
        this.returns = returns;
        this.vouchers = vouchers;
        this.stock = stock;
        this.redis = redis;
        this.losses = losses;
        // One consistent snapshot of MySQL per attempt (InnoDB's REPEATABLE READ, read-only).
        this.snapshot = new TransactionTemplate(transactions);
        this.snapshot.setReadOnly(true);
        this.snapshot.setIsolationLevel(TransactionDefinition.ISOLATION_REPEATABLE_READ);
    }

    /**
     * The audit's stock and order counts without its heavier checks (distinct and duplicate buyers, Redis
     * data losses): cheap enough to be asked every second.
     *
     * @param redisStock null when Redis holds no counter for the voucher
     * @throws Refusal voucher-not-found
     */
    public record SaleNumbers(int dbStock, long orders, Long redisStock, long pendingOrders, long deadLetters,
            OrdersByVoucher.Lifecycle lifecycle) {
    }

    @Transactional(readOnly = true)
    public SaleNumbers numbers(long voucherId) {
        VoucherStock.Levels sale = sale(voucherId);
        OrdersByVoucher.Lifecycle lifecycle = orders.lifecycleOf(voucherId);
        long orderCount = lifecycle.unitsHeld() + lifecycle.unitsReturned();
        OrderStates.StreamCounts counts = redis.counts(voucherId);
        return new SaleNumbers(sale.stock(), orderCount, redisStock(voucherId), counts.pending(), counts.deadLetters(),
                lifecycle);
    }

    private VoucherStock.Levels sale(long voucherId) {
        return vouchers.levels(voucherId)
                .orElseThrow(() -> new Refusal(Reason.VOUCHER_NOT_FOUND, "No voucher with id " + voucherId));
    }

    private Long redisStock(long voucherId) {
        return stock.read(voucherId).stream().boxed().findFirst().orElse(null);
    }

    /**
     * MySQL and Redis read as one cut, although no lock stops the sale meanwhile: Redis before and after
     * MySQL, again until both Redis reads agree (no order was taken, acknowledged or settled in between).
     * An order committed to MySQL but not yet acknowledged in Redis is then counted once, in MySQL, for the
     * verdict, and still reported as pending (not settled) until it is acknowledged. Read in
     * the other order without the check, an order committed and acknowledged between the reads was in
     * neither, and the audit said "inconsistent" about a sale that was not.
     */
    public VoucherAudit audit(long voucherId) {
        for (int attempt = 1; ; attempt++) {
            SaleState before = redis.read(voucherId);
            MySqlCut db = snapshot.execute(status -> mySqlCut(voucherId, before));
            // Units MySQL took back and Redis not yet (normally for milliseconds after the order ended)
            long returnsOwed = returns.notReturned(voucherId, db.returnsDue()).size();
            SaleState after = redis.read(voucherId);
            if (before.equals(after) || attempt == SETTLE_ATTEMPTS) {
                // After the last attempt the sale was still moving: the counts are as close as a live sale allows.
                Optional<RedisFailovers.Report> failedOver = failovers.affecting(voucherId);
                long settling = after.pendingOrderIds().size() + after.syncUnitOrderIds().size()
                        - notIn(after.pendingOrderIds(), db.found()) - notIn(after.syncUnitOrderIds(), db.found());
                return VoucherAudit.of(voucherId, db.initialStock(), db.dbStock(), after.stock(), db.orders(),
                        db.buyers(), db.duplicateBuyers(), after.pendingOrderIds().size(), after.syncUnitOrderIds().size(),
                        after.failed(), after.deadLetters(), losses.latestAffecting(voucherId).orElse(null), settling,
                        VoucherAudit.Lifecycle.of(db.lifecycle(), after.unitsReturned(), returnsOwed),
                        failedOver.map(RedisFailovers.Report::latestAt).orElse(null),
                        failedOver.map(f -> new VoucherAudit.Failover(f.allReplayed(), f.reapplied(), f.lost(), f.resold(),
                                f.voided())).orElse(null), db.revivedOrders());
            }
        }
    }

    private record MySqlCut(int initialStock, int dbStock, long orders, long buyers, long duplicateBuyers,
            Set<Long> found, OrdersByVoucher.Lifecycle lifecycle, Set<Long> returnsDue, long revivedOrders) {
    }

    private MySqlCut mySqlCut(long voucherId, SaleState redisState) {
        VoucherStock.Levels sale = sale(voucherId);
        OrdersByVoucher.Buyers buyers = orders.buyersOf(voucherId);
        List<Long> ids = new ArrayList<>();
        redisState.pendingOrderIds().forEach(id -> ids.add(Long.parseLong(id)));
        redisState.syncUnitOrderIds().forEach(id -> ids.add(Long.parseLong(id)));
        return new MySqlCut(sale.initialStock(), sale.stock(), buyers.orders(), buyers.buyers(),
                buyers.duplicateBuyers(), orders.inMySql(voucherId, ids), orders.lifecycleOf(voucherId),
                orders.returnsDue(voucherId), orders.revivedOrders(voucherId));
    }

    private static long notIn(Set<String> ids, Set<Long> found) {
        return ids.stream().filter(id -> !found.contains(Long.parseLong(id))).count();
    }
}
