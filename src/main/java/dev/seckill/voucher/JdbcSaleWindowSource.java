package dev.seckill.voucher;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

@Component
class JdbcSaleWindowSource implements SaleWindowSource {

    private final JdbcTemplate jdbc;

    JdbcSaleWindowSource(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    @Override
    public Map<Long, SaleWindow> loadAfter(long afterId) {
        Map<Long, SaleWindow> windows = new LinkedHashMap<>();
        jdbc.query("SELECT voucher_id, begin_time, end_time, challenge_difficulty, payment_window_ms, "
                + "arrival_window_ms, admissions_per_second, room_seed FROM seckill_voucher "
                + "WHERE voucher_id > ? ORDER BY voucher_id",
                row -> {
                    Long paymentWindowMillis = row.getObject(5, Long.class);
                    Long arrivalWindowMillis = row.getObject(6, Long.class);
                    windows.put(row.getLong(1), new SaleWindow(row.getTimestamp(2).toInstant(),
                            row.getTimestamp(3).toInstant(), row.getObject(4, Integer.class),
                            paymentWindowMillis == null ? null : Duration.ofMillis(paymentWindowMillis),
                            arrivalWindowMillis == null ? null : new WaitingRoom(Duration.ofMillis(arrivalWindowMillis),
                                    row.getInt(7), row.getString(8))));
                }, afterId);
        return windows;
    }
}
