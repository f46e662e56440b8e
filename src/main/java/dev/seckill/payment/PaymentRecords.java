package dev.seckill.payment;

import java.sql.Timestamp;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/** The {@code payment} and {@code payment_event} tables; every method joins the caller's transaction. */
@Component
class PaymentRecords {

    record Payment(String ref, long orderId, long amountCents, PaymentStatus status, String checkoutUrl) {
    }

    private final JdbcTemplate jdbc;

    PaymentRecords(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    void insert(String ref, long orderId, long amountCents, String checkoutUrl, Instant now) {
        jdbc.update("INSERT INTO payment (id, order_id, amount_cents, status, checkout_url, created_at, updated_at) "
                + "VALUES (?, ?, ?, ?, ?, ?, ?)", ref, orderId, amountCents, PaymentStatus.OPEN.name(), checkoutUrl,
                Timestamp.from(now), Timestamp.from(now));
    }

    Optional<Payment> find(String ref) {
        return jdbc.query("SELECT id, order_id, amount_cents, status, checkout_url FROM payment WHERE id = ?",
                PaymentRecords::row, ref).stream().findFirst();
    }

    List<Payment> ofOrder(long orderId) {
        return jdbc.query("SELECT id, order_id, amount_cents, status, checkout_url FROM payment WHERE order_id = ? "
                + "ORDER BY created_at", PaymentRecords::row, orderId);
    }

    /** One guarded move: true only for the caller whose UPDATE found the payment in one of {@code from}. */
    boolean move(String ref, PaymentStatus to, PaymentStatus... from) {
        String states = Arrays.stream(from).map(s -> "'" + s.name() + "'").collect(Collectors.joining(","));
        return jdbc.update("UPDATE payment SET status = ?, updated_at = UTC_TIMESTAMP(3) WHERE id = ? AND status IN ("
                + states + ")", to.name(), ref) == 1;
    }

    /**
     * Claims a notification for this transaction; false when its event id was handled before (a delivery again).
     * A second delivery handled at the same moment waits on the first one's row lock, then finds it.
     */
    boolean firstTime(String eventId, String ref, String type) {
        try {
            jdbc.update("INSERT INTO payment_event (event_id, payment_id, type, outcome, received_at) "
                    + "VALUES (?, ?, ?, 'HANDLING', UTC_TIMESTAMP(3))", eventId, ref, type);
            return true;
        } catch (DuplicateKeyException handledBefore) {
            return false;
        }
    }

    void outcome(String eventId, String outcome) {
        jdbc.update("UPDATE payment_event SET outcome = ? WHERE event_id = ?", outcome, eventId);
    }

    private static Payment row(java.sql.ResultSet rs, int n) throws java.sql.SQLException {
        return new Payment(rs.getString(1), rs.getLong(2), rs.getLong(3), PaymentStatus.valueOf(rs.getString(4)),
                rs.getString(5));
    }
}
