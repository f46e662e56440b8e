package dev.seckill.durability;

import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * MySQL's memory of Redis: the epoch marker Redis should hold, and every time it was found gone. MySQL,
 * not Redis, keeps this because the record must outlive the very loss it describes.
 */
@Component
public class RedisDataLosses {

    private final JdbcTemplate jdbc;

    RedisDataLosses(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /**
     * The latest loss seen while the voucher existed: orders of its sale may have been in Redis only, and
     * are gone. Conservative on purpose: whether the sale had orders on their way at that moment is exactly
     * what the loss took. Voucher ids only grow, so "existed then" is an id comparison, free of clocks.
     */
    public Optional<Instant> latestAffecting(long voucherId) {
        Timestamp latest = jdbc.queryForObject("SELECT MAX(detected_at) FROM redis_data_loss WHERE last_voucher_id >= ?",
                Timestamp.class, voucherId);
        return Optional.ofNullable(latest).map(Timestamp::toInstant);
    }

    Optional<String> expectedEpoch() {
        List<String> epoch = jdbc.queryForList("SELECT epoch FROM redis_epoch WHERE id = 1", String.class);
        return epoch.stream().findFirst();
    }

    /** The first epoch this database sees; a no-op if another instance got there first. */
    void begin(String epoch, Instant now) {
        jdbc.update("INSERT IGNORE INTO redis_epoch (id, epoch, since) VALUES (1, ?, ?)", epoch, Timestamp.from(now));
    }

    /** Records the loss of {@code lostEpoch}; true for the one instance whose record it is. */
    boolean recordLoss(String lostEpoch, Instant now, String instanceId) {
        return jdbc.update("INSERT IGNORE INTO redis_data_loss (lost_epoch, detected_at, detected_by, last_voucher_id) "
                + "SELECT ?, ?, ?, COALESCE(MAX(id), 0) FROM voucher", lostEpoch, Timestamp.from(now), instanceId) == 1;
    }

    /** Moves on from {@code lost} to {@code next}, unless another instance already did. */
    void advance(String lost, String next, Instant now) {
        jdbc.update("UPDATE redis_epoch SET epoch = ?, since = ? WHERE id = 1 AND epoch = ?", next, Timestamp.from(now), lost);
    }
}
