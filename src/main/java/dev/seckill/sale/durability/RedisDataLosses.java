package dev.seckill.sale.durability;

import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

import dev.seckill.voucher.VoucherStock;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Transactional;

/**
 * MySQL's memory of Redis: the epoch marker Redis should hold, and every time it was found gone. MySQL,
 * not Redis, keeps this because the record must outlive the very loss it describes.
 */
@Component
public class RedisDataLosses {

    private final JdbcTemplate jdbc;
    private final VoucherStock vouchers;

    RedisDataLosses(JdbcTemplate jdbc, VoucherStock vouchers) {
        this.jdbc = jdbc;
        this.vouchers = vouchers;
    }

    /** What MySQL expects Redis to hold, and which generation of it. */
    record Expected(String epoch, long generation) {
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

    Optional<Expected> expected() {
        List<Expected> rows = jdbc.query("SELECT epoch, generation FROM redis_epoch WHERE id = 1",
                (row, n) -> new Expected(row.getString(1), row.getLong(2)));
        return rows.stream().findFirst();
    }

    /** The first epoch this database sees; a no-op if another instance got there first. */
    void begin(String epoch, Instant now) {
        jdbc.update("INSERT IGNORE INTO redis_epoch (id, epoch, generation, since) VALUES (1, ?, 0, ?)", epoch,
                Timestamp.from(now));
    }

    /**
     * Moves on from a lost epoch to the one Redis holds now and records the loss, together. Only the
     * instance whose compare-and-set wins records it: one row per loss however many instances saw it, and
     * an epoch that comes back (a Redis restored from an old copy) and is lost again is a new loss.
     */
    @Transactional
    boolean recordLoss(Expected lost, String next, Instant now, String instanceId) {
        int moved = jdbc.update("UPDATE redis_epoch SET epoch = ?, generation = generation + 1, since = ? "
                + "WHERE id = 1 AND generation = ?", next, Timestamp.from(now), lost.generation());
        if (moved == 0) {
            return false;
        }
        // A voucher created after this read was created after the loss was seen: its Redis state is new, not lost.
        jdbc.update("INSERT INTO redis_data_loss (lost_epoch, generation, detected_at, detected_by, last_voucher_id) "
                + "VALUES (?, ?, ?, ?, ?)", lost.epoch(), lost.generation(), Timestamp.from(now), instanceId,
                vouchers.newestVoucherId());
        return true;
    }
}
