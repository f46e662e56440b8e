package dev.seckill.sandbox;

import java.sql.Timestamp;
import java.time.Instant;
import java.util.Collections;
import java.util.List;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Isolation;
import org.springframework.transaction.annotation.Transactional;

/**
 * The one door to {@code sandbox_delivery} for the deliverers. A round claims a few due rows and lets go of their
 * locks before posting anything: a slow merchant holds no lock, and another instance's round skips the rows this one
 * claimed (their due time is a lease ahead) instead of waiting for them.
 */
@SandboxEnabled
@Component
class DeliveryQueue {

    /** A notification claimed for one delivery attempt. */
    record Claimed(String eventId, String body, int attempts, boolean deliveredBefore) {
    }

    private final JdbcTemplate jdbc;

    DeliveryQueue(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /**
     * Up to {@code limit} rows due at {@code now}, the earliest due first, each made due again only at
     * {@code leaseUntil}: if this instance dies before it marks them, another delivers them then. SKIP LOCKED: rows
     * another instance is claiming at this moment are left to it. READ COMMITTED: no gap locks, so the payments
     * queuing new notifications meanwhile never wait for a round.
     */
    @Transactional(isolation = Isolation.READ_COMMITTED)
    List<Claimed> claim(Instant now, Instant leaseUntil, int limit) {
        List<Claimed> due = jdbc.query("SELECT event_id, body, attempts, delivered_at FROM sandbox_delivery "
                        + "WHERE due_at <= ? ORDER BY due_at, created_at LIMIT ? FOR UPDATE SKIP LOCKED",
                (rs, row) -> new Claimed(rs.getString("event_id"), rs.getString("body"), rs.getInt("attempts"),
                        rs.getTimestamp("delivered_at") != null), Timestamp.from(now), limit);
        if (due.isEmpty()) {
            return due;
        }
        String marks = String.join(", ", Collections.nCopies(due.size(), "?"));
        Object[] args = new Object[due.size() + 1];
        args[0] = Timestamp.from(leaseUntil);
        for (int i = 0; i < due.size(); i++) {
            args[i + 1] = due.get(i).eventId();
        }
        jdbc.update("UPDATE sandbox_delivery SET due_at = ? WHERE event_id IN (" + marks + ")", args);
        return due;
    }

    /** Answered 2xx; {@code again} is when to deliver it once more on purpose, or null when it is done. */
    void delivered(Claimed claimed, Instant now, Instant again) {
        jdbc.update("UPDATE sandbox_delivery SET attempts = attempts + 1, delivered_at = COALESCE(delivered_at, ?), "
                + "due_at = ?, last_error = NULL WHERE event_id = ?", Timestamp.from(now), timestamp(again),
                claimed.eventId());
    }

    /** Not delivered; {@code retryAt} is the next attempt, or null when it is given up. */
    void failed(Claimed claimed, String error, Instant retryAt) {
        String shortError = error.length() > 255 ? error.substring(0, 255) : error;
        jdbc.update("UPDATE sandbox_delivery SET attempts = attempts + 1, due_at = ?, last_error = ? WHERE event_id = ?",
                timestamp(retryAt), shortError, claimed.eventId());
    }

    private static Timestamp timestamp(Instant at) {
        return at == null ? null : Timestamp.from(at);
    }
}
