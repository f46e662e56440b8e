package dev.seckill.order;

import dev.seckill.voucher.FreshSaleStarting;
import org.springframework.context.event.EventListener;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;

/** A fresh sale deletes the voucher's orders, in the reset's own transaction (never one of its own). */
@Component
class FreshSaleOrders {

    private final JdbcTemplate jdbc;

    FreshSaleOrders(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    @EventListener
    @Transactional(propagation = Propagation.MANDATORY)
    void deleteOrders(FreshSaleStarting event) {
        jdbc.update("DELETE FROM voucher_order WHERE voucher_id = ?", event.voucherId());
    }
}
