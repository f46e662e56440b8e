package dev.seckill.audit;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.seckill.durability.RedisDataLosses;
import dev.seckill.salestate.OrderStates;
import dev.seckill.salestate.StockCache;
import dev.seckill.salestate.OrderStates.SaleState;
import dev.seckill.refusal.Reason;
import dev.seckill.refusal.Refusal;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Service;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Reads a voucher's numbers straight from MySQL and Redis, with SQL anyone can re-run by hand. Public for
 * the live numbers ({@code dev.seckill.live}), which show the same stock and order counts every second.
 */
@Service
public class AuditService {

    /** A sale still taking orders can move between every pair of reads; after these many tries the audit answers anyway. */
    static final int SETTLE_ATTEMPTS = 10;
    private static final int IDS_PER_QUERY = 1_000;

    private final JdbcTemplate jdbc;
    private final StockCache stock;
    private final OrderStates redis;
    private final RedisDataLosses losses;
    private final TransactionTemplate snapshot;

    AuditService(JdbcTemplate jdbc, StockCache stock, OrderStates redis, RedisDataLosses losses,
            PlatformTransactionManager transactions) {
        this.jdbc = jdbc;
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
    public record SaleNumbers(int dbStock, long orders, Long redisStock, long pendingOrders, long deadLetters) {
    }

    @Transactional(readOnly = true)
    public SaleNumbers numbers(long voucherId) {
        Map<String, Object> sale = sale(voucherId);
        long orders = jdbc.queryForObject("SELECT COUNT(*) FROM voucher_order WHERE voucher_id = ?", Long.class,
                voucherId);
        OrderStates.StreamCounts counts = redis.counts(voucherId);
        return new SaleNumbers(number(sale, "stock").intValue(), orders, redisStock(voucherId), counts.pending(),
                counts.deadLetters());
    }

    private Map<String, Object> sale(long voucherId) {
        List<Map<String, Object>> sale = jdbc.queryForList(
                "SELECT stock, initial_stock FROM seckill_voucher WHERE voucher_id = ?", voucherId);
        if (sale.isEmpty()) {
            throw new Refusal(Reason.VOUCHER_NOT_FOUND, "No voucher with id " + voucherId);
        }
        return sale.get(0);
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
     * neither, and the audit said "inconsistent" about a sale that was not (MySqlOutageIT saw it).
     */
    public VoucherAudit audit(long voucherId) {
        for (int attempt = 1; ; attempt++) {
            SaleState before = redis.read(voucherId);
            MySqlCut db = snapshot.execute(status -> mySqlCut(voucherId, before));
            SaleState after = redis.read(voucherId);
            if (before.equals(after) || attempt == SETTLE_ATTEMPTS) {
                // After the last attempt the sale was still moving: the counts are as close as a live sale allows.
                long settling = after.pendingOrderIds().size() + after.syncUnitOrderIds().size()
                        - notIn(after.pendingOrderIds(), db.found()) - notIn(after.syncUnitOrderIds(), db.found());
                return VoucherAudit.of(voucherId, db.initialStock(), db.dbStock(), after.stock(), db.orders(),
                        db.buyers(), db.duplicateBuyers(), after.pendingOrderIds().size(), after.syncUnitOrderIds().size(),
                        after.failed(), after.deadLetters(), losses.latestAffecting(voucherId).orElse(null), settling);
            }
        }
    }

    private record MySqlCut(int initialStock, int dbStock, long orders, long buyers, long duplicateBuyers,
            Set<String> found) {
    }

    private MySqlCut mySqlCut(long voucherId, SaleState redisState) {
        Map<String, Object> sale = sale(voucherId);
        Map<String, Object> orders = jdbc.queryForMap("SELECT COUNT(*) AS orders, COUNT(DISTINCT user_id) AS buyers "
                + "FROM voucher_order WHERE voucher_id = ?", voucherId);
        long duplicateBuyers = jdbc.queryForObject("SELECT COUNT(*) FROM (SELECT user_id FROM voucher_order "
                + "WHERE voucher_id = ? GROUP BY user_id HAVING COUNT(*) > 1) d", Long.class, voucherId);
        Set<String> found = new HashSet<>();
        List<String> ids = new ArrayList<>(redisState.pendingOrderIds());
        ids.addAll(redisState.syncUnitOrderIds());
        for (int from = 0; from < ids.size(); from += IDS_PER_QUERY) {
            String batch = String.join(",", ids.subList(from, Math.min(ids.size(), from + IDS_PER_QUERY)).stream()
                    .map(Long::parseLong).map(String::valueOf).toList());
            found.addAll(jdbc.queryForList("SELECT CAST(id AS CHAR) FROM voucher_order WHERE id IN (" + batch + ")",
                    String.class));
        }
        return new MySqlCut(number(sale, "initial_stock").intValue(), number(sale, "stock").intValue(),
                number(orders, "orders").longValue(), number(orders, "buyers").longValue(), duplicateBuyers, found);
    }

    private static long notIn(Set<String> ids, Set<String> found) {
        return ids.stream().filter(id -> !found.contains(id)).count();
    }

    private static Number number(Map<String, Object> row, String column) {
        return (Number) row.get(column);
    }
}
