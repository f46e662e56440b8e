package dev.seckill.id;

import java.time.Duration;
import java.util.List;
import java.util.OptionalLong;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Repository;

/**
 * The table {@code id_worker_lease}: one row per worker number (0..1023, all created by the migration).
 * Every statement runs on its own (auto-commit): each is atomic by itself, and the row's owner column
 * decides who may change it. Expiry is always compared with the database's clock,
 * {@code UTC_TIMESTAMP(6)}, never an instance's, so instance clocks may disagree; UTC rather than
 * {@code NOW(6)} so that a session time zone can never shift it.
 */
@Repository
class WorkerLeaseTable {

    private final JdbcTemplate jdbc;

    WorkerLeaseTable(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /**
     * Worker numbers free to take (never held, released, or expired), longest unused first: a number
     * with an old high-water mark lets its next holder issue ids stamped with the real time at once.
     */
    List<Integer> takeable(int limit) {
        return jdbc.queryForList("""
                SELECT worker_id FROM id_worker_lease
                WHERE owner IS NULL OR expires_at < UTC_TIMESTAMP(6)
                ORDER BY issued_until, worker_id
                LIMIT ?""", Integer.class, limit);
    }

    /**
     * Takes the number if it is free or its lease has run out: the row count says whether this call
     * won (two instances racing for one number cannot both change the row).
     *
     * @return the row's high-water mark if taken: no earlier holder issued an id after it
     */
    OptionalLong claim(int workerId, String owner, Duration lease) {
        int taken = jdbc.update("""
                UPDATE id_worker_lease
                SET owner = ?, expires_at = UTC_TIMESTAMP(6) + INTERVAL ? MICROSECOND
                WHERE worker_id = ? AND (owner IS NULL OR expires_at < UTC_TIMESTAMP(6))""",
                owner, micros(lease), workerId);
        if (taken == 0) {
            return OptionalLong.empty();
        }
        List<Long> issuedUntil = jdbc.queryForList(
                "SELECT issued_until FROM id_worker_lease WHERE worker_id = ? AND owner = ?", Long.class, workerId, owner);
        return issuedUntil.isEmpty() ? OptionalLong.empty() : OptionalLong.of(issuedUntil.get(0));
    }

    /**
     * Extends this owner's lease and raises its high-water mark. Succeeds as long as nobody took the
     * number, even if the lease ran out meanwhile (then nobody else issued under it either).
     *
     * @return false if the lease is lost: another owner took the number
     */
    boolean renew(int workerId, String owner, Duration lease, long issuedUntil) {
        return jdbc.update("""
                UPDATE id_worker_lease
                SET expires_at = UTC_TIMESTAMP(6) + INTERVAL ? MICROSECOND, issued_until = GREATEST(issued_until, ?)
                WHERE worker_id = ? AND owner = ?""", micros(lease), issuedUntil, workerId, owner) == 1;
    }

    /**
     * Frees the number at once, recording the highest millisecond actually issued (no margin: this
     * owner has stopped issuing), so the next holder's ids carry the real time.
     */
    boolean release(int workerId, String owner, long issuedUntil) {
        return jdbc.update("""
                UPDATE id_worker_lease SET owner = NULL, expires_at = NULL, issued_until = ?
                WHERE worker_id = ? AND owner = ?""", issuedUntil, workerId, owner) == 1;
    }

    private static long micros(Duration duration) {
        return duration.toNanos() / 1_000;
    }
}
