package dev.seckill.order;

import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import dev.seckill.voucher.PaymentWindows;
import dev.seckill.voucher.VoucherStock;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * The one way orders enter {@code voucher_order}: a batch of orders, all or nothing, with their units of MySQL
 * stock (one guarded UPDATE of the voucher module's table for the batch) and one batched INSERT. The async
 * consumers write their batches; the sync path writes a batch of one ({@link SyncOrderCreation}). Idempotent:
 * orders already in MySQL (a redelivered message whose first delivery committed but was never
 * acknowledged) are left alone and reported. Its own bean, so callers go through the transactional proxy.
 */
@Service
public class NewOrderWriter {

    /** Every order reaches MySQL waiting for its payment, until {@code pay_by}: its voucher's payment window after it was accepted. */
    static final String WRITTEN_AS = OrderStatus.AWAITING_PAYMENT.name();

    private final JdbcTemplate jdbc;
    private final VoucherStock vouchers;
    private final OrdersByVoucher byVoucher;
    private final PaymentWindows paymentWindows;

    NewOrderWriter(JdbcTemplate jdbc, VoucherStock vouchers, OrdersByVoucher byVoucher, PaymentWindows paymentWindows) {
        this.jdbc = jdbc;
        this.vouchers = vouchers;
        this.byVoucher = byVoucher;
        this.paymentWindows = paymentWindows;
    }

    public record NewOrder(long orderId, long shopperId, long createdAtMillis) {
    }

    /** Refused for a reason no retry will change soon (no stock left in MySQL). */
    public static class OrderRejectedException extends RuntimeException {

        public OrderRejectedException(String message) {
            super(message);
        }
    }

    /**
     * Returns the ids of the orders that were already in MySQL.
     *
     * @throws OrderRejectedException MySQL has fewer units left than the batch's new orders
     * @throws org.springframework.dao.DataIntegrityViolationException a shopper holds an order of the voucher already
     */
    @Transactional
    public Set<Long> persist(long voucherId, List<NewOrder> orders) {
        Set<Long> existing = existingIds(voucherId, orders);
        List<NewOrder> fresh = orders.stream().filter(o -> !existing.contains(o.orderId())).toList();
        if (!fresh.isEmpty()) {
            insert(voucherId, fresh);
        }
        return existing;
    }

    /**
     * {@link #persist} for orders whose ids were issued for this very write (the sync path's): none can be in
     * MySQL yet, so no query looks for them first (the primary key would refuse one anyway).
     *
     * @throws OrderRejectedException MySQL has fewer units left than the orders
     * @throws org.springframework.dao.DataIntegrityViolationException a shopper holds an order of the voucher already
     */
    @Transactional
    public void persistFresh(long voucherId, List<NewOrder> orders) {
        insert(voucherId, orders);
    }

    private void insert(long voucherId, List<NewOrder> fresh) {
        if (!vouchers.takeUnits(voucherId, fresh.size())) {
            throw new OrderRejectedException("MySQL has fewer than " + fresh.size() + " units left of voucher " + voucherId);
        }
        long windowMillis = paymentWindows.of(voucherId).toMillis();
        List<Object[]> rows = new ArrayList<>(fresh.size());
        for (NewOrder order : fresh) {
            // The window counts from the acceptance (the shopper's click), not from the write: a queue that lags
            // does not lengthen it.
            rows.add(new Object[] {order.orderId(), order.shopperId(), voucherId, WRITTEN_AS,
                    Timestamp.from(Instant.ofEpochMilli(order.createdAtMillis())),
                    Timestamp.from(Instant.ofEpochMilli(order.createdAtMillis() + windowMillis))});
        }
        jdbc.batchUpdate("INSERT INTO voucher_order (id, user_id, voucher_id, status, created_at, pay_by) "
                + "VALUES (?, ?, ?, ?, ?, ?)", rows);
    }

    private Set<Long> existingIds(long voucherId, List<NewOrder> orders) {
        return byVoucher.inMySql(voucherId, orders.stream().map(NewOrder::orderId).toList());
    }
}
