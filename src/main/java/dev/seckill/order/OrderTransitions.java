package dev.seckill.order;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.seckill.voucher.VoucherStock;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Isolation;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;

/**
 * Every move of an order in MySQL, each one guarded statement whose row count decides: {@code UPDATE ... WHERE id = ?
 * AND status = ?} changes the order only if it is still in the state the caller saw, so of two actors racing on one
 * order (the shopper's cancel and the expiry scan, a payment and the expiry, two cancels) exactly one wins. An order
 * that ends unpaid gives its unit back to MySQL's stock in the same transaction, and is marked as owing Redis its
 * unit ({@code unit_return_due}) until {@link UnitsBackToRedis} confirms it. Its own bean: the callers go through the
 * transactional proxy.
 * <p>
 * READ COMMITTED: every statement here finds its rows by primary key or takes them with {@code SKIP LOCKED}, and needs
 * no gap locks. Under REPEATABLE READ the expiry's scan and a cancel hold gap locks on the order indexes where a buy
 * inserts its new order while it holds the voucher's stock row, and the ending then waits for that row: MySQL kills
 * one of the two as a deadlock (a sync buy answers 500, or a cancel fails).
 */
@Component
class OrderTransitions {

    /** An order that ended unpaid in a committed transaction: its unit is to go back to Redis. */
    record Ended(long orderId, long voucherId, Instant payBy) {
    }

    private final JdbcTemplate jdbc;
    private final VoucherStock vouchers;

    OrderTransitions(JdbcTemplate jdbc, VoucherStock vouchers) {
        this.jdbc = jdbc;
        this.vouchers = vouchers;
    }

    /**
     * Locks the shopper's order row ({@code FOR UPDATE}) until the caller's transaction ends; nothing when there is no
     * such row (an order still on its way, or someone else's). Every move of the order waits for it meanwhile, and the
     * expiry skips it until the next scan.
     */
    @Transactional(propagation = Propagation.MANDATORY)
    public void lockOwn(long orderId, long shopperId) {
        jdbc.query("SELECT id FROM voucher_order WHERE id = ? AND user_id = ? FOR UPDATE", (rs, n) -> rs.getLong(1),
                orderId, shopperId);
    }

    /** AWAITING_PAYMENT -> PAID; false when the order was not awaiting payment any more. */
    @Transactional(isolation = Isolation.READ_COMMITTED)
    public boolean pay(long orderId) {
        return move(orderId, OrderStatus.AWAITING_PAYMENT, OrderStatus.PAID, false) == 1;
    }

    /** EXPIRED or CANCELLED -> REFUNDED (its unit went back when it ended); false when it was in neither state. */
    @Transactional(isolation = Isolation.READ_COMMITTED)
    public boolean refunded(long orderId) {
        return move(orderId, OrderStatus.EXPIRED, OrderStatus.REFUNDED, false) == 1
                || move(orderId, OrderStatus.CANCELLED, OrderStatus.REFUNDED, false) == 1;
    }

    /** AWAITING_PAYMENT -> CANCELLED for the order's own shopper, its unit back in MySQL's stock; false if it lost the race. */
    @Transactional(isolation = Isolation.READ_COMMITTED)
    public boolean cancel(long orderId, long shopperId, long voucherId) {
        int changed = jdbc.update("UPDATE voucher_order SET status = ?, ended_at = UTC_TIMESTAMP(3), "
                + "unit_return_due = UTC_TIMESTAMP(3) WHERE id = ? AND user_id = ? AND status = ?",
                OrderStatus.CANCELLED.name(), orderId, shopperId, OrderStatus.AWAITING_PAYMENT.name());
        if (changed == 1) {
            vouchers.returnUnits(voucherId, 1);
        }
        return changed == 1;
    }

    /** What the expiry found due, locked for its transaction. */
    record Due(long orderId, long voucherId, Instant payBy) {
    }

    /** Decides, for one locked order, whether it is paid after all (the provider refused to close its payment). */
    interface Closer {
        PaymentClosing.Closed close(Due order);
    }

    /**
     * One batch of the expiry, all in one transaction: takes up to {@code batch} orders awaiting payment past their
     * {@code pay_by} (by MySQL's clock, the one every instance shares) in {@code pay_by} order, skipping rows another
     * instance holds ({@code FOR UPDATE SKIP LOCKED}: two scans never take the same order). Each is closed with the
     * provider first: one it reports paid becomes PAID; the others EXPIRED, their units back in MySQL's stock. An
     * order whose provider cannot be asked is left for the next scan.
     *
     * @return the orders that expired (committed when this returns), and how many were taken in all
     */
    @Transactional(isolation = Isolation.READ_COMMITTED)
    public Batch expireDue(int batch, Closer closer) {
        List<Due> due = jdbc.query("SELECT id, voucher_id, pay_by FROM voucher_order WHERE status = ? "
                + "AND pay_by <= UTC_TIMESTAMP(3) ORDER BY pay_by LIMIT ? FOR UPDATE SKIP LOCKED",
                (rs, n) -> new Due(rs.getLong(1), rs.getLong(2), rs.getTimestamp(3).toInstant()),
                OrderStatus.AWAITING_PAYMENT.name(), batch);
        List<Ended> expired = new ArrayList<>();
        int ended = 0;
        Map<Long, Integer> unitsBack = new HashMap<>();
        for (Due order : due) {
            PaymentClosing.Closed closed;
            try {
                closed = closer.close(order);
            } catch (RuntimeException providerUnreachable) {
                continue;
            }
            if (closed == PaymentClosing.Closed.PAID) {
                ended += move(order.orderId(), OrderStatus.AWAITING_PAYMENT, OrderStatus.PAID, false);
            } else if (move(order.orderId(), OrderStatus.AWAITING_PAYMENT, OrderStatus.EXPIRED, true) == 1) {
                ended++;
                expired.add(new Ended(order.orderId(), order.voucherId(), order.payBy()));
                unitsBack.merge(order.voucherId(), 1, Integer::sum);
            }
        }
        unitsBack.forEach(vouchers::returnUnits);
        return new Batch(due.size(), ended, expired);
    }

    /** {@code ended}: how many of the {@code taken} orders became EXPIRED or PAID (the rest wait for their provider). */
    record Batch(int taken, int ended, List<Ended> expired) {
    }

    /** Redis has the units of these orders back: nothing is owed any more. */
    @Transactional(isolation = Isolation.READ_COMMITTED)
    public void returnedToRedis(List<Long> orderIds) {
        if (!orderIds.isEmpty()) {
            jdbc.batchUpdate("UPDATE voucher_order SET unit_return_due = NULL WHERE id = ?",
                    orderIds.stream().map(id -> new Object[] {id}).toList());
        }
    }

    /**
     * Still owed to Redis, tried again in a minute (its voucher has no counter in Redis now): every instance scans
     * every second, and retried at once such returns would keep each instance busy with the same rows, contending
     * for their locks with the order writes while a voucher has no counter, however long that lasts.
     */
    @Transactional(isolation = Isolation.READ_COMMITTED)
    public void returnLater(List<Long> orderIds) {
        if (!orderIds.isEmpty()) {
            jdbc.batchUpdate("UPDATE voucher_order SET unit_return_due = TIMESTAMPADD(MINUTE, 1, UTC_TIMESTAMP(3)) "
                    + "WHERE id = ? AND unit_return_due IS NOT NULL", orderIds.stream().map(id -> new Object[] {id}).toList());
        }
    }

    /**
     * Orders that gave their unit back to MySQL at least {@code olderThan} ago (by MySQL's clock) and whose Redis
     * return is still unconfirmed: the instance that ended them died, or Redis could not take them then.
     */
    public List<Ended> returnsOwed(Duration olderThan, int limit) {
        return jdbc.query("SELECT id, voucher_id, pay_by FROM voucher_order WHERE unit_return_due IS NOT NULL "
                + "AND unit_return_due <= TIMESTAMPADD(MICROSECOND, ?, UTC_TIMESTAMP(3)) ORDER BY unit_return_due LIMIT ?",
                (rs, n) -> new Ended(rs.getLong(1), rs.getLong(2), rs.getTimestamp(3).toInstant()),
                -olderThan.toNanos() / 1000, limit);
    }

    private int move(long orderId, OrderStatus from, OrderStatus to, boolean givesUnitBack) {
        return jdbc.update("UPDATE voucher_order SET status = ?, ended_at = COALESCE(ended_at, UTC_TIMESTAMP(3))"
                + (givesUnitBack ? ", unit_return_due = UTC_TIMESTAMP(3)" : "") + " WHERE id = ? AND status = ?",
                to.name(), orderId, from.name());
    }
}
