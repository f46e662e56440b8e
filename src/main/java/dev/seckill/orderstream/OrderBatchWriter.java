package dev.seckill.orderstream;

import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * Writes a batch of orders accepted by the asynchronous path, all or nothing: one guarded stock
 * UPDATE for the batch and one batched INSERT. Idempotent: orders already in MySQL (a redelivered
 * message whose first delivery committed but was never acknowledged) are left alone and reported.
 * Its own bean, so the consumer always goes through the transactional proxy.
 */
@Service
class OrderBatchWriter {

    /** {@code OrderStatus.CONFIRMED}: in MySQL, the order is final. */
    static final String CONFIRMED = "CONFIRMED";

    private final JdbcTemplate jdbc;

    OrderBatchWriter(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    record NewOrder(long orderId, long shopperId, long createdAtMillis) {
    }

    /** Refused for a reason no retry will change soon (no stock left in MySQL). */
    static class OrderRejectedException extends RuntimeException {

        OrderRejectedException(String message) {
            super(message);
        }
    }

    /** Returns the ids of the orders that were already in MySQL. */
    @Transactional
    Set<Long> persist(long voucherId, List<NewOrder> orders) {
        Set<Long> existing = existingIds(orders);
        List<NewOrder> fresh = orders.stream().filter(o -> !existing.contains(o.orderId())).toList();
        if (fresh.isEmpty()) {
            return existing;
        }
        int taken = jdbc.update("UPDATE seckill_voucher SET stock = stock - ? WHERE voucher_id = ? AND stock >= ?",
                fresh.size(), voucherId, fresh.size());
        if (taken == 0) {
            throw new OrderRejectedException("MySQL has fewer than " + fresh.size() + " units left of voucher " + voucherId);
        }
        List<Object[]> rows = new ArrayList<>(fresh.size());
        for (NewOrder order : fresh) {
            rows.add(new Object[] {order.orderId(), order.shopperId(), voucherId, CONFIRMED,
                    Timestamp.from(Instant.ofEpochMilli(order.createdAtMillis()))});
        }
        jdbc.batchUpdate("INSERT INTO voucher_order (id, user_id, voucher_id, status, created_at) VALUES (?, ?, ?, ?, ?)",
                rows);
        return existing;
    }

    private Set<Long> existingIds(List<NewOrder> orders) {
        String ids = orders.stream().map(o -> Long.toString(o.orderId())).collect(Collectors.joining(","));
        return new HashSet<>(jdbc.queryForList("SELECT id FROM voucher_order WHERE id IN (" + ids + ")", Long.class));
    }
}
