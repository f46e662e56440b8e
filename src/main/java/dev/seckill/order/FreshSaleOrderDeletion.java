package dev.seckill.order;

import dev.seckill.voucher.FreshSaleStarting;
import org.springframework.context.event.EventListener;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;

/**
 * A fresh sale deletes the voucher's orders, in the reset's own transaction (never one of its own), and remembers
 * which it deleted: one of them back in MySQL (an instance's failover replay of the old sale, a write still on its
 * way) makes the audit say so ({@link OrdersByVoucher#revivedOrders}).
 */
@Component
class FreshSaleOrderDeletion {

    private final JdbcTemplate jdbc;

    FreshSaleOrderDeletion(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    @EventListener
    @Transactional(propagation = Propagation.MANDATORY)
    void deleteOrders(FreshSaleStarting event) {
        jdbc.update("INSERT IGNORE INTO fresh_sale_deleted_order (order_id, voucher_id, deleted_at) "
                + "SELECT id, voucher_id, UTC_TIMESTAMP(3) FROM voucher_order WHERE voucher_id = ?", event.voucherId());
        jdbc.update("DELETE FROM voucher_order WHERE voucher_id = ?", event.voucherId());
    }
}
