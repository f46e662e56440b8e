package dev.seckill.sale.reconcile;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

import dev.seckill.sale.UnitsBack;
import dev.seckill.salestate.HeldLock;
import dev.seckill.salestate.SeckillLocks;
import dev.seckill.refusal.Reason;
import dev.seckill.refusal.Refusal;
import dev.seckill.sale.stream.OrderStream;
import dev.seckill.salestate.StockCache;
import dev.seckill.salestate.SyncUnits;
import dev.seckill.salestate.UnitReturns;
import dev.seckill.order.OrdersByVoucher;
import dev.seckill.voucher.VoucherStock;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Rebuilds a voucher's Redis stock counter, buyer set and shopper -> order index from MySQL plus the
 * orders still on their way (pending in Redis, not yet in MySQL) and those given up: for use after
 * Redis lost its data, by both order paths. Under the voucher's lock, with the counter deleted first
 * so that no order is accepted while the numbers are being taken. Units that sync requests hold are left out
 * of the counter (their orders commit, or the units come back, afterwards), once those of orders already
 * committed are settled. A sync order that took its unit before a loss of Redis's data (its record went
 * with it) and commits after the rebuild leaves the counter one high; MySQL's guarded UPDATE still refuses
 * any unit that is not there.
 */
@Component
public class StreamReconciler {

    private final BuyerIndex buyerIndex;
    private final OrdersByVoucher orders;
    private final VoucherStock vouchers;
    private final TransactionTemplate snapshot;
    private final SeckillLocks locks;
    private final OrderStream stream;
    private final ApplicationEventPublisher events;
    private final StockCache stock;
    private final SyncUnits syncUnits;
    private final CommittedUnits committedUnits;
    private final UnitReturns unitReturns;

    StreamReconciler(BuyerIndex buyerIndex, OrdersByVoucher orders, VoucherStock vouchers,
            PlatformTransactionManager transactions,
            SeckillLocks locks, OrderStream stream, ApplicationEventPublisher events, StockCache stock, SyncUnits syncUnits,
            CommittedUnits committedUnits, UnitReturns unitReturns) {
        this.unitReturns = unitReturns;
        this.buyerIndex = buyerIndex;
        this.orders = orders;
        this.vouchers = vouchers;
        this.snapshot = new TransactionTemplate(transactions);
        this.snapshot.setReadOnly(true);
        this.snapshot.setIsolationLevel(TransactionDefinition.ISOLATION_REPEATABLE_READ);
        this.locks = locks;
        this.stream = stream;
        this.events = events;
        this.stock = stock;
        this.syncUnits = syncUnits;
        this.committedUnits = committedUnits;
    }

    public record Report(long voucherId, int dbStock, long dbOrders, long pendingOrders, long redisStock, long buyers) {
    }

    public Report reconcile(long voucherId) {
        try (HeldLock voucherLock = locks.lockVoucher(voucherId)) {
            stock.forget(voucherId);
            return rebuild(voucherId);
        }
    }

    /** For the request path: only the first of many requests that found the counter missing rebuilds it. */
    public void reconcileIfMissing(long voucherId) {
        try (HeldLock voucherLock = locks.lockVoucher(voucherId)) {
            if (stock.read(voucherId).isEmpty()) {
                rebuild(voucherId);
            }
        }
    }

    private Report rebuild(long voucherId) {
        // Units of sync orders already in MySQL first: MySQL's stock counts them, the rebase must not again.
        // Sync mode only: in async mode no sweeper runs, and units a sync instance left are reported by ModeSwitchCheck.
        committedUnits.settleCommitted(voucherId);
        // Pending first, MySQL second (one consistent snapshot): an order written in between is found
        // in MySQL and not counted twice; one written after the snapshot is still counted as pending.
        Map<String, String> pending = buyerIndex.pendingOrders(voucherId);
        Map<String, String> failed = buyerIndex.failedOrders(voucherId);
        Snapshot db = snapshot.execute(status -> takeSnapshot(voucherId, pending.keySet()));
        Set<String> buyers = new HashSet<>(db.orderOf().keySet());
        pending.forEach((order, shopper) -> {
            if (!db.persisted().contains(order)) {
                buyers.add(shopper);
            }
        });
        long onTheirWay = pending.keySet().stream().filter(order -> !db.persisted().contains(order)).count();
        Map<String, String> shopperOrders = shopperOrders(failed, pending, db);

        buyerIndex.replace(voucherId, buyers, shopperOrders);
        // Units of ended orders that MySQL's stock holds again and Redis was still owed: marked returned before the
        // counter counts them, so a return still on its way adds nothing to it afterwards.
        unitReturns.markReturned(voucherId, db.returnsOwed());
        // The counter last, on its own: it counts the sync units in flight at the moment it is set.
        long redisStock = stock.rebase(voucherId, db.stock() - onTheirWay, db.saleGeneration());
        stream.register(voucherId);
        syncUnits.register(voucherId);
        events.publishEvent(new UnitsBack(voucherId));
        return new Report(voucherId, db.stock(), db.orderOf().size(), onTheirWay, redisStock, buyers.size());
    }

    /**
     * Each shopper's latest order, as the purchase script keeps it: the one in MySQL (it holds the
     * shopper's unit), else the one on its way, else the latest given up (ids grow with time).
     */
    private static Map<String, String> shopperOrders(Map<String, String> failed, Map<String, String> pending, Snapshot db) {
        Map<String, String> latest = new HashMap<>();
        failed.forEach((order, shopper) -> latest.merge(shopper, order,
                (a, b) -> Long.parseLong(a) >= Long.parseLong(b) ? a : b));
        pending.forEach((order, shopper) -> {
            if (!db.persisted().contains(order)) {
                latest.put(shopper, order);
            }
        });
        latest.putAll(db.orderOf());
        return latest;
    }

    private Snapshot takeSnapshot(long voucherId, Set<String> pendingOrderIds) {
        VoucherStock.Levels levels = vouchers.levels(voucherId)
                .orElseThrow(() -> new Refusal(Reason.VOUCHER_NOT_FOUND, "No voucher with id " + voucherId));
        Map<String, String> orderOf = new HashMap<>();
        orders.orderOfEachBuyer(voucherId).forEach((shopper, order) -> orderOf.put(shopper.toString(), order.toString()));
        Set<String> persisted = new HashSet<>();
        orders.inMySql(voucherId, pendingOrderIds.stream().map(Long::parseLong).toList())
                .forEach(order -> persisted.add(order.toString()));
        return new Snapshot(levels.stock(), levels.saleGeneration(), orderOf, persisted, orders.returnsDue(voucherId));
    }

    /** {@code orderOf}: buyer (user id) -> their order's id, from MySQL. */
    private record Snapshot(int stock, long saleGeneration, Map<String, String> orderOf, Set<String> persisted,
            Set<Long> returnsOwed) {
    }
}
