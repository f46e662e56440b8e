package dev.seckill.orderstream;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.seckill.lock.HeldLock;
import dev.seckill.lock.SeckillLocks;
import dev.seckill.stock.SoldOutFlags;
import dev.seckill.stock.VoucherKeys;
import dev.seckill.web.ProblemCode;
import dev.seckill.web.SeckillProblem;
import org.redisson.api.BatchOptions;
import org.redisson.api.RBatch;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Rebuilds a voucher's Redis stock counter and buyer set from MySQL plus the orders still on their way
 * (pending in Redis, not yet in MySQL): for use after Redis lost its data, by both order paths. Under
 * the voucher's lock, with the counter deleted first so that no order is accepted while the numbers
 * are being taken. A sync order that took its unit before the loss and commits after the rebuild
 * leaves the counter one high; MySQL's guarded UPDATE still refuses any unit that is not there.
 */
@Component
public class StreamReconciler {

    private static final int SADD_CHUNK = 1_000;

    private final RedissonClient redisson;
    private final JdbcTemplate jdbc;
    private final TransactionTemplate snapshot;
    private final SeckillLocks locks;
    private final OrderStream stream;
    private final SoldOutFlags soldOut;

    StreamReconciler(RedissonClient redisson, JdbcTemplate jdbc, PlatformTransactionManager transactions,
            SeckillLocks locks, OrderStream stream, SoldOutFlags soldOut) {
        this.redisson = redisson;
        this.jdbc = jdbc;
        this.snapshot = new TransactionTemplate(transactions);
        this.snapshot.setReadOnly(true);
        this.snapshot.setIsolationLevel(TransactionDefinition.ISOLATION_REPEATABLE_READ);
        this.locks = locks;
        this.stream = stream;
        this.soldOut = soldOut;
    }

    public record Report(long voucherId, int dbStock, long dbOrders, long pendingOrders, long redisStock, long buyers) {
    }

    public Report reconcile(long voucherId) {
        try (HeldLock voucherLock = locks.lockVoucher(voucherId)) {
            redisson.getBucket(VoucherKeys.stock(voucherId), StringCodec.INSTANCE).delete();
            return rebuild(voucherId);
        }
    }

    /** For the request path: only the first of many requests that found the counter missing rebuilds it. */
    public void reconcileIfMissing(long voucherId) {
        try (HeldLock voucherLock = locks.lockVoucher(voucherId)) {
            if (!redisson.getBucket(VoucherKeys.stock(voucherId), StringCodec.INSTANCE).isExists()) {
                rebuild(voucherId);
            }
        }
    }

    private Report rebuild(long voucherId) {
        // Pending first, MySQL second (one consistent snapshot): an order written in between is found
        // in MySQL and not counted twice; one written after the snapshot is still counted as pending.
        Map<String, String> pending = new HashMap<>();
        redisson.<String, String>getMap(VoucherKeys.pending(voucherId), StringCodec.INSTANCE).readAllMap()
                .forEach((order, shopper) -> pending.put(String.valueOf(order), String.valueOf(shopper)));
        Snapshot db = snapshot.execute(status -> takeSnapshot(voucherId, pending.keySet()));
        Set<String> buyers = new HashSet<>(db.buyers());
        pending.forEach((order, shopper) -> {
            if (!db.persisted().contains(order)) {
                buyers.add(shopper);
            }
        });
        long onTheirWay = pending.keySet().stream().filter(order -> !db.persisted().contains(order)).count();
        long redisStock = db.stock() - onTheirWay;

        RBatch batch = redisson.createBatch(BatchOptions.defaults().executionMode(BatchOptions.ExecutionMode.IN_MEMORY_ATOMIC));
        batch.getSet(VoucherKeys.buyers(voucherId), StringCodec.INSTANCE).deleteAsync();
        List<String> all = new ArrayList<>(buyers);
        for (int from = 0; from < all.size(); from += SADD_CHUNK) {
            batch.getSet(VoucherKeys.buyers(voucherId), StringCodec.INSTANCE)
                    .addAllAsync(all.subList(from, Math.min(all.size(), from + SADD_CHUNK)));
        }
        batch.getBucket(VoucherKeys.stock(voucherId), StringCodec.INSTANCE).setAsync(Long.toString(redisStock));
        batch.execute();
        stream.register(voucherId);
        soldOut.clear(voucherId);
        return new Report(voucherId, db.stock(), db.orders(), onTheirWay, redisStock, buyers.size());
    }

    private Snapshot takeSnapshot(long voucherId, Set<String> pendingOrderIds) {
        List<Integer> stock = jdbc.queryForList("SELECT stock FROM seckill_voucher WHERE voucher_id = ?", Integer.class,
                voucherId);
        if (stock.isEmpty()) {
            throw new SeckillProblem(ProblemCode.VOUCHER_NOT_FOUND, "No voucher with id " + voucherId);
        }
        List<String> buyers = jdbc.queryForList("SELECT user_id FROM voucher_order WHERE voucher_id = ?", String.class,
                voucherId);
        Set<String> persisted = new HashSet<>();
        if (!pendingOrderIds.isEmpty()) {
            String ids = String.join(",", pendingOrderIds.stream().map(Long::parseLong).map(String::valueOf).toList());
            persisted.addAll(jdbc.queryForList("SELECT id FROM voucher_order WHERE id IN (" + ids + ")", String.class));
        }
        return new Snapshot(stock.get(0), buyers.size(), new HashSet<>(buyers), persisted);
    }

    private record Snapshot(int stock, long orders, Set<String> buyers, Set<String> persisted) {
    }
}
