package dev.seckill.sandbox;

import java.time.Duration;
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
@Component
class DeliveryQueue {

    /** A notification claimed for one delivery attempt. */
    record Claimed(String eventId, String body, int attempts, boolean deliveredBefore) {
    }

    /**
     * "That long from now" by the database's clock, for a parameter in microseconds. Every time of the queue is the
     * database's: the instances judging what is due agree whatever their own clocks say, and the milliseconds survive
     * (Connector/J drops them from a timestamp parameter when the server calls itself 5.5.5-, as MariaDB does).
     */
    static final String IN_MICROS = "TIMESTAMPADD(MICROSECOND, ?, UTC_TIMESTAMP(3))";

    private final JdbcTemplate jdbc;

    DeliveryQueue(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /**
     * Up to {@code limit} rows due now, the earliest due first, each made due again only a {@code lease} later: if
     * this instance dies before it marks them, another delivers them then. SKIP LOCKED: rows another instance is
     * claiming at this moment are left to it. READ COMMITTED: no gap locks, so the payments queuing new notifications
     * meanwhile never wait for a round.
     */
    @Transactional(isolation = Isolation.READ_COMMITTED)
    List<Claimed> claim(int limit, Duration lease) {
        // In due_at's index order, so that the scan stops after `limit` unlocked rows and locks only those: a table
        // scan and sort would lock every due row, and the other instances would find nothing to claim meanwhile.
        List<Claimed> due = jdbc.query("SELECT event_id, body, attempts, delivered_at FROM sandbox_delivery "
                        + "FORCE INDEX (idx_sandbox_delivery_due) WHERE due_at <= UTC_TIMESTAMP(3) ORDER BY due_at "
                        + "LIMIT ? FOR UPDATE SKIP LOCKED",
                (rs, row) -> new Claimed(rs.getString("event_id"), rs.getString("body"), rs.getInt("attempts"),
                        rs.getTimestamp("delivered_at") != null), limit);
        if (due.isEmpty()) {
            return due;
        }
        String marks = String.join(", ", Collections.nCopies(due.size(), "?"));
        Object[] args = new Object[due.size() + 1];
        args[0] = micros(lease);
        for (int i = 0; i < due.size(); i++) {
            args[i + 1] = due.get(i).eventId();
        }
        jdbc.update("UPDATE sandbox_delivery SET due_at = " + IN_MICROS + " WHERE event_id IN (" + marks + ")", args);
        return due;
    }

    /** Answered 2xx; {@code again} is when to deliver it once more on purpose, or null when it is done. */
    void delivered(Claimed claimed, Duration again) {
        jdbc.update("UPDATE sandbox_delivery SET attempts = attempts + 1, "
                + "delivered_at = COALESCE(delivered_at, UTC_TIMESTAMP(3)), due_at = " + IN_MICROS + ", last_error = NULL "
                + "WHERE event_id = ?", micros(again), claimed.eventId());
    }

    /** Not delivered; {@code retryIn} is the wait before the next attempt, or null when it is given up. */
    void failed(Claimed claimed, String error, Duration retryIn) {
        String shortError = error.length() > 255 ? error.substring(0, 255) : error;
        jdbc.update("UPDATE sandbox_delivery SET attempts = attempts + 1, due_at = " + IN_MICROS + ", last_error = ? "
                + "WHERE event_id = ?", micros(retryIn), shortError, claimed.eventId());
    }

    /** A wait in microseconds for {@link #IN_MICROS}, or null (the time is then NULL too). */
    static Long micros(Duration wait) {
        return wait == null ? null : wait.toNanos() / 1_000;
    }
}
