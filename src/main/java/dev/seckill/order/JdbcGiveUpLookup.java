package dev.seckill.order;

import java.util.List;

import dev.seckill.AsyncMode;
import dev.seckill.salestate.QueuedOrder;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

@AsyncMode
@Component
class JdbcGiveUpLookup implements GiveUpLookup {

    private final JdbcTemplate jdbc;

    JdbcGiveUpLookup(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    @Override
    public Found find(QueuedOrder order) {
        record Row(long id, String status) {
        }
        List<Row> rows = jdbc.query("SELECT id, status FROM voucher_order WHERE id = ? OR (user_id = ? AND voucher_id = ?)",
                (rs, n) -> new Row(rs.getLong(1), rs.getString(2)), order.orderId(), order.shopperId(), order.voucherId());
        if (rows.stream().anyMatch(row -> row.id() == order.orderId())) {
            return Found.THIS_ORDER;
        }
        // Another order of the shopper that holds its unit (awaiting payment or paid): it holds the buyer's place too.
        if (rows.stream().anyMatch(row -> OrderStatus.valueOf(row.status()).holdsUnit())) {
            return Found.OTHER_ORDER;
        }
        return Found.NOTHING;
    }

    @Override
    public boolean answers() {
        try {
            jdbc.queryForObject("SELECT 1", Integer.class);
            return true;
        } catch (RuntimeException e) {
            return false;
        }
    }
}
