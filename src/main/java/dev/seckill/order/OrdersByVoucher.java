package dev.seckill.order;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import dev.seckill.voucher.OrderCount;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.RowCallbackHandler;
import org.springframework.stereotype.Component;

/**
 * What the other modules ask of {@code voucher_order}: the audit, the reconcile, the sync unit sweeper and the
 * stock reset ask here instead of running SQL against this module's table. Every method joins the caller's
 * transaction, so a caller that opened a snapshot (the audit's, the reconcile's) reads them all in it.
 */
@Component
public class OrdersByVoucher implements OrderCount {

    /** Ids per query: an IN list stays a few kilobytes. */
    static final int IDS_PER_QUERY = 1_000;

    private final JdbcTemplate jdbc;

    OrdersByVoucher(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /** A voucher's orders and the shoppers who hold them ({@code duplicateBuyers} > 0 would be a double sale). */
    public record Buyers(long orders, long buyers, long duplicateBuyers) {
    }

    /**
     * Which of these orders of the voucher MySQL holds: the one question that decides what an order on its way
     * became. Scoped to the voucher, so that an id of another voucher's order can never settle one of this one's.
     * The ids are longs written into the statement, as one plain query per chunk: placeholders would make a
     * server-side prepared statement of every list length (useServerPrepStmts), most too long for the cache.
     */
    public Set<Long> inMySql(long voucherId, Collection<Long> orderIds) {
        if (orderIds.isEmpty()) {
            return Set.of();
        }
        List<Long> ids = new ArrayList<>(orderIds);
        Set<Long> found = new HashSet<>();
        for (int from = 0; from < ids.size(); from += IDS_PER_QUERY) {
            String chunk = ids.subList(from, Math.min(ids.size(), from + IDS_PER_QUERY)).stream()
                    .map(String::valueOf).collect(Collectors.joining(","));
            found.addAll(jdbc.queryForList("SELECT id FROM voucher_order WHERE voucher_id = ? AND id IN (" + chunk + ")",
                    Long.class, voucherId));
        }
        return found;
    }

    /** Orders of the voucher in MySQL that a fresh sale had deleted: back from the sale it ended. */
    public long revivedOrders(long voucherId) {
        return jdbc.queryForObject("SELECT COUNT(*) FROM voucher_order o JOIN fresh_sale_deleted_order d "
                + "ON d.order_id = o.id WHERE o.voucher_id = ?", Long.class, voucherId);
    }

    @Override
    public long unitsHeldBy(long voucherId) {
        return jdbc.queryForObject("SELECT COUNT(*) FROM voucher_order WHERE voucher_id = ? AND status IN (?, ?)",
                Long.class, voucherId, OrderStatus.AWAITING_PAYMENT.name(), OrderStatus.PAID.name());
    }

    @Override
    public Map<Long, Long> awaitingPayment(Collection<Long> voucherIds) {
        if (voucherIds.isEmpty()) {
            return Map.of();
        }
        // The ids are longs written into the statement, as in inMySql; a page lists a few dozen vouchers at most.
        String ids = voucherIds.stream().map(String::valueOf).collect(Collectors.joining(","));
        Map<Long, Long> awaiting = new HashMap<>();
        jdbc.query("SELECT voucher_id, COUNT(*) FROM voucher_order WHERE status = ? AND voucher_id IN (" + ids + ") "
                + "GROUP BY voucher_id", (RowCallbackHandler) rs -> awaiting.put(rs.getLong(1), rs.getLong(2)),
                OrderStatus.AWAITING_PAYMENT.name());
        return awaiting;
    }

    /**
     * A voucher's orders in MySQL by state. {@code unitsHeld()} of them hold a unit; the others gave theirs back
     * ({@code unitsReturned()}).
     */
    public record Lifecycle(long awaitingPayment, long paid, long expired, long cancelled, long refunded) {

        public long unitsHeld() {
            return awaitingPayment + paid;
        }

        public long unitsReturned() {
            return expired + cancelled + refunded;
        }
    }

    public Lifecycle lifecycleOf(long voucherId) {
        Map<String, Long> byStatus = new HashMap<>();
        jdbc.query("SELECT status, COUNT(*) FROM voucher_order WHERE voucher_id = ? GROUP BY status",
                (RowCallbackHandler) rs -> byStatus.put(rs.getString(1), rs.getLong(2)), voucherId);
        return new Lifecycle(count(byStatus, OrderStatus.AWAITING_PAYMENT), count(byStatus, OrderStatus.PAID),
                count(byStatus, OrderStatus.EXPIRED), count(byStatus, OrderStatus.CANCELLED),
                count(byStatus, OrderStatus.REFUNDED));
    }

    /** Orders that gave their unit back to MySQL and whose return to Redis is not confirmed yet. */
    public Set<Long> returnsDue(long voucherId) {
        return new HashSet<>(jdbc.queryForList("SELECT id FROM voucher_order WHERE voucher_id = ? "
                + "AND unit_return_due IS NOT NULL", Long.class, voucherId));
    }

    private static long count(Map<String, Long> byStatus, OrderStatus status) {
        return byStatus.getOrDefault(status.name(), 0L);
    }

    public Buyers buyersOf(long voucherId) {
        Map<String, Object> orders = jdbc.queryForMap("SELECT COUNT(*) AS orders, COUNT(DISTINCT user_id) AS buyers "
                + "FROM voucher_order WHERE voucher_id = ?", voucherId);
        long duplicateBuyers = jdbc.queryForObject("SELECT COUNT(*) FROM (SELECT user_id FROM voucher_order "
                + "WHERE voucher_id = ? GROUP BY user_id HAVING COUNT(*) > 1) d", Long.class, voucherId);
        return new Buyers(((Number) orders.get("orders")).longValue(), ((Number) orders.get("buyers")).longValue(),
                duplicateBuyers);
    }

    /** Each buyer's order of the voucher: shopper id -> order id (one row per buyer: UNIQUE(user_id, voucher_id)). */
    public Map<Long, Long> orderOfEachBuyer(long voucherId) {
        Map<Long, Long> orderOf = new HashMap<>();
        jdbc.query("SELECT user_id, id FROM voucher_order WHERE voucher_id = ?",
                (RowCallbackHandler) rs -> orderOf.put(rs.getLong(1), rs.getLong(2)), voucherId);
        return orderOf;
    }
}
