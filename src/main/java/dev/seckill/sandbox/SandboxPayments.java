package dev.seckill.sandbox;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.Optional;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * The one door to {@code sandbox_payment}. Every move is a single guarded UPDATE ({@code WHERE ref = ? AND status = ?}):
 * when two instances (or a shopper and the merchant) race, the database lets exactly one of them win, and the row
 * count says which.
 */
@Component
class SandboxPayments {

    private final JdbcTemplate jdbc;

    SandboxPayments(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /** @throws org.springframework.dao.DuplicateKeyException when another payment was opened with this key */
    void insert(SandboxPayment payment, String idempotencyKey, Instant now) {
        jdbc.update("INSERT INTO sandbox_payment (ref, order_id, amount_cents, status, pay_by, idempotency_key, "
                        + "created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)", payment.ref(), payment.orderId(),
                payment.amountCents(), payment.status().name(), Timestamp.from(payment.payBy()), idempotencyKey,
                Timestamp.from(now), Timestamp.from(now));
    }

    Optional<SandboxPayment> findByIdempotencyKey(String idempotencyKey) {
        return jdbc.query("SELECT ref, order_id, amount_cents, status, pay_by FROM sandbox_payment "
                + "WHERE idempotency_key = ?", SandboxPayments::payment, idempotencyKey).stream().findFirst();
    }

    Optional<SandboxPayment> find(String ref) {
        return jdbc.query("SELECT ref, order_id, amount_cents, status, pay_by FROM sandbox_payment WHERE ref = ?",
                SandboxPayments::payment, ref).stream().findFirst();
    }

    /** {@code from} to {@code to}, if the payment is still {@code from}: whether this call made the move. */
    boolean move(String ref, SandboxStatus from, SandboxStatus to, Instant now) {
        return jdbc.update("UPDATE sandbox_payment SET status = ?, updated_at = ? WHERE ref = ? AND status = ?",
                to.name(), Timestamp.from(now), ref, from.name()) == 1;
    }

    /** OPEN to PAID, if it is still open and its pay-by time has not come. */
    boolean pay(String ref, Instant now) {
        return jdbc.update("UPDATE sandbox_payment SET status = 'PAID', updated_at = ? "
                + "WHERE ref = ? AND status = 'OPEN' AND pay_by > ?", Timestamp.from(now), ref, Timestamp.from(now)) == 1;
    }

    /** PAID to REFUNDED, if it is still paid and for this amount. */
    boolean refund(String ref, long amountCents, Instant now) {
        return jdbc.update("UPDATE sandbox_payment SET status = 'REFUNDED', updated_at = ? "
                + "WHERE ref = ? AND status = 'PAID' AND amount_cents = ?", Timestamp.from(now), ref, amountCents) == 1;
    }

    private static SandboxPayment payment(ResultSet rs, int row) throws SQLException {
        return new SandboxPayment(rs.getString("ref"), rs.getLong("order_id"), rs.getLong("amount_cents"),
                SandboxStatus.valueOf(rs.getString("status")), rs.getTimestamp("pay_by").toInstant());
    }
}
