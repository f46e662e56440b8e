package dev.seckill.voucher;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * How long the orders of a voucher wait for their payment, for the order writer, which computes each order's
 * {@code pay_by} from it on both order paths. From the sale-window cache, where the voucher's buy was checked, so no
 * order write asks MySQL for it; a voucher this instance has not learnt yet (a consumer writing another instance's
 * orders within the cache's refresh gap) is read from MySQL. A voucher created before the window was the voucher's has
 * none: its orders get the instances' {@code seckill.payment.window}.
 */
@Component
public class PaymentWindows {

    private final SaleWindowCache windows;
    private final JdbcTemplate jdbc;
    private final DefaultPaymentWindow instances;

    PaymentWindows(SaleWindowCache windows, JdbcTemplate jdbc, DefaultPaymentWindow instances) {
        this.windows = windows;
        this.jdbc = jdbc;
        this.instances = instances;
    }

    public Duration of(long voucherId) {
        Optional<SaleWindow> known = windows.find(voucherId);
        Duration window = known.isPresent() ? known.get().paymentWindow() : stored(voucherId);
        return window != null ? window : instances.window();
    }

    private Duration stored(long voucherId) {
        List<Long> rows = jdbc.query("SELECT payment_window_ms FROM seckill_voucher WHERE voucher_id = ?",
                (rs, n) -> rs.getObject(1, Long.class), voucherId);
        return rows.isEmpty() || rows.get(0) == null ? null : Duration.ofMillis(rows.get(0));
    }
}
