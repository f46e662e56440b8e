package dev.seckill.sale.failover;

import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.LongSupplier;

import dev.seckill.voucher.VoucherStock;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Transactional;

/**
 * MySQL's memory of Redis's masters: which ones the platform writes to, every failover from one set to another, and
 * what each instance found when it replayed the orders it had just accepted into the new master. In MySQL because
 * the record must outlive the Redis it describes. The audit reads the failovers that touched a voucher's sale
 * ({@link #affecting}).
 */
@Component
public class RedisFailovers {

    private final JdbcTemplate jdbc;
    private final LongSupplier newestVoucherId;

    @Autowired
    RedisFailovers(JdbcTemplate jdbc, VoucherStock vouchers) {
        this(jdbc, vouchers::newestVoucherId);
    }

    RedisFailovers(JdbcTemplate jdbc, LongSupplier newestVoucherId) {
        this.jdbc = jdbc;
        this.newestVoucherId = newestVoucherId;
    }

    /**
     * What the failovers since a voucher was created did to its sale.
     *
     * @param latestAt    when the latest was detected
     * @param allReplayed every instance alive at each of them replayed its journal: otherwise orders accepted just
     *                    before by an instance that did not (it died with the master) may be gone, and nobody can know
     * @param reapplied   accepted orders the new master lacked and the instances put back
     * @param lost        accepted orders that could not be put back (answered 202, gone)
     * @param resold      orders in MySQL whose unit the new master sold again (a later order MySQL refuses)
     * @param voided      journaled orders of a sale started afresh since (a reset deleted them): left out
     */
    public record Report(Instant latestAt, boolean allReplayed, long reapplied, long lost, long resold, long voided) {

        /** Whether the failovers left the sale provably whole. */
        public boolean accountedFor() {
            return allReplayed && lost == 0 && resold == 0;
        }
    }

    public Optional<Report> affecting(long voucherId) {
        List<Object[]> failovers = jdbc.query("SELECT generation, detected_at, expected_replays FROM redis_failover "
                + "WHERE last_voucher_id >= ? ORDER BY generation", (row, n) -> new Object[] {row.getLong(1),
                row.getTimestamp(2).toInstant(), row.getString(3)}, voucherId);
        if (failovers.isEmpty()) {
            return Optional.empty();
        }
        boolean allReplayed = true;
        for (Object[] failover : failovers) {
            Set<String> done = new HashSet<>(jdbc.queryForList("SELECT watcher FROM redis_failover_replay "
                    + "WHERE generation = ? AND voucher_id = 0", String.class, failover[0]));
            allReplayed &= done.containsAll(watchers((String) failover[2]));
        }
        long firstGeneration = (Long) failovers.get(0)[0];
        long[] sums = jdbc.queryForObject("SELECT COALESCE(SUM(reapplied), 0), COALESCE(SUM(lost), 0), "
                + "COALESCE(SUM(resold), 0), COALESCE(SUM(voided), 0) FROM redis_failover_replay "
                + "WHERE voucher_id = ? AND generation >= ?",
                (row, n) -> new long[] {row.getLong(1), row.getLong(2), row.getLong(3), row.getLong(4)}, voucherId,
                firstGeneration);
        return Optional.of(new Report((Instant) failovers.get(failovers.size() - 1)[1], allReplayed, sums[0], sums[1],
                sums[2], sums[3]));
    }

    private static Set<String> watchers(String expected) {
        Set<String> watchers = new HashSet<>(Arrays.asList(expected.split(",")));
        watchers.remove("");
        return watchers;
    }

    /** This watcher is alive: a failover now expects its replay. */
    void heartbeat(String watcher) {
        jdbc.update("INSERT INTO redis_watcher (watcher, seen_at) VALUES (?, UTC_TIMESTAMP(3)) "
                + "ON DUPLICATE KEY UPDATE seen_at = UTC_TIMESTAMP(3)", watcher);
    }

    /** Stops expecting replays of a watcher that stopped on purpose (its journal goes with it, empty by then). */
    void leave(String watcher) {
        jdbc.update("DELETE FROM redis_watcher WHERE watcher = ?", watcher);
    }

    /** The masters MySQL last recorded, if any. */
    Optional<String> recordedMasters() {
        return jdbc.queryForList("SELECT masters FROM redis_topology WHERE id = 1", String.class).stream().findFirst();
    }

    /** The first masters this database sees; a no-op if another instance got there first. */
    void begin(String masters, Instant now) {
        jdbc.update("INSERT IGNORE INTO redis_topology (id, masters, generation, since) VALUES (1, ?, 0, ?)", masters,
                Timestamp.from(now));
    }

    /** A failover this call recorded, or found recorded by another instance. */
    record Switch(long generation, boolean recordedHere) {
    }

    /**
     * Moves MySQL's record on to {@code masters} and records the failover, together; only the instance whose
     * compare-and-set wins records it, with the watchers seen in the last {@code alive} as the replays it expects.
     * Another instance that saw the same switch gets the same generation back.
     */
    @Transactional
    Switch switchTo(String masters, Instant now, String instanceId, Duration alive) {
        Optional<String> before = jdbc.queryForList("SELECT masters FROM redis_topology WHERE id = 1 FOR UPDATE",
                String.class).stream().findFirst();
        if (before.isEmpty()) {
            begin(masters, now);
            return new Switch(0, false);
        }
        if (before.get().equals(masters)) {
            return new Switch(jdbc.queryForObject("SELECT generation FROM redis_topology WHERE id = 1", Long.class), false);
        }
        jdbc.update("UPDATE redis_topology SET masters = ?, generation = generation + 1, since = ? WHERE id = 1",
                masters, Timestamp.from(now));
        long generation = jdbc.queryForObject("SELECT generation FROM redis_topology WHERE id = 1", Long.class);
        List<String> expected = jdbc.queryForList("SELECT watcher FROM redis_watcher "
                + "WHERE seen_at >= TIMESTAMPADD(MICROSECOND, ?, UTC_TIMESTAMP(3)) ORDER BY watcher", String.class,
                -alive.toNanos() / 1000);
        // A voucher created after this read was created on the new master: its sale lost nothing.
        jdbc.update("INSERT INTO redis_failover (generation, old_masters, new_masters, detected_at, detected_by, "
                + "last_voucher_id, expected_replays) VALUES (?, ?, ?, ?, ?, ?, ?)", generation, before.get(), masters,
                Timestamp.from(now), instanceId, newestVoucherId.getAsLong(), String.join(",", expected));
        return new Switch(generation, true);
    }

    /** The failover MySQL's record is at: 0 before the first, -1 before any masters were recorded. */
    long currentGeneration() {
        return jdbc.queryForList("SELECT generation FROM redis_topology WHERE id = 1", Long.class).stream().findFirst()
                .orElse(-1L);
    }

    /**
     * What one watcher's replay found, per voucher, and, when {@code finished}, that it answered for the failover
     * (not when its journal had dropped orders: then nobody can know). A later replay for the same failover (a
     * follow-up) adds what it re-applied (those orders were missing still) and replaces the other counts with what it
     * saw: it replayed the same orders and more, so an order lost before and placed since is no longer lost.
     */
    @Transactional
    void recordReplay(long generation, String watcher, List<FailoverReplay.Replayed> replayed, boolean finished,
            Instant now) {
        for (FailoverReplay.Replayed voucher : replayed) {
            jdbc.update("INSERT INTO redis_failover_replay (generation, watcher, voucher_id, present, reapplied, lost, "
                    + "resold, voided, replayed_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON DUPLICATE KEY UPDATE "
                    + "present = VALUES(present), reapplied = reapplied + VALUES(reapplied), lost = VALUES(lost), "
                    + "resold = GREATEST(resold, VALUES(resold)), voided = GREATEST(voided, VALUES(voided)), "
                    + "replayed_at = VALUES(replayed_at)", generation, watcher, voucher.voucherId(), voucher.present(),
                    voucher.reapplied(), voucher.lost(), voucher.resold(), voucher.voided(), Timestamp.from(now));
        }
        if (finished) {
            jdbc.update("INSERT IGNORE INTO redis_failover_replay (generation, watcher, voucher_id, present, reapplied, "
                    + "lost, resold, replayed_at) VALUES (?, ?, 0, 0, 0, 0, 0, ?)", generation, watcher, Timestamp.from(now));
        }
    }
}
