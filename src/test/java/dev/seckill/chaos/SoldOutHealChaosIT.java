package dev.seckill.chaos;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import dev.seckill.salestate.VoucherKeys;
import dev.seckill.support.Api;
import dev.seckill.support.Nginx;
import dev.seckill.support.PacedBurst;
import dev.seckill.support.RedisServer;
import dev.seckill.support.TestServers;
import dev.seckill.support.Tokens;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Chaos scenario 6: sold-out flags heal under load. Two packaged instances behind the repository's Nginx
 * rules, on a Redis and a database of this test's own; a paced burst from outside sells a voucher out,
 * then units come back twice while it goes on, and both instances must sell them again within a second:
 * <ul>
 *   <li>a give-up: {@value #POISONED} orders accepted early cannot be written (MySQL already holds a row of
 *       their shoppers: the unique key refuses them) and are held back until after the sell-out (the test
 *       holds the voucher's order-writes lock, so no consumer writes any of its orders until then);
 *       released, each is given up at its first failure ({@code max-attempts=1}) and its unit returns;</li>
 *   <li>a restock (the admin reset, with more stock), followed by a stale sold-out message to every
 *       instance: what a request that read "sold out" before the restock and reported it after spreads.
 *       Before flags healed, that message left every instance refusing the restocked units for good.</li>
 * </ul>
 * Then the backlog drains and the usual comparisons hold: every accepted order in MySQL once (but the
 * given-up ones, which MySQL must not have), nothing oversold, Redis and MySQL agree.
 */
// Left to scripts/chaos (52 s): in ./mvnw verify, SoldOutFlagsTest heals stale flags and missed clears within an
// interval, and AsyncPathIT sells a given-up order's unit again after a sell-out.
@RunByScriptsChaos
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class SoldOutHealChaosIT {

    /**
     * 150 requests a second, until {@link #AFTER_FAULTS} after the faults are done (some 10 s on an idle machine),
     * a minute at most: on a loaded machine the give-ups can follow the release by tens of seconds, and a burst
     * of fixed length can end before them, leaving nobody to buy the units that come back.
     */
    static final int SHOPPERS = 9_000;
    static final Duration BURST = Duration.ofSeconds(60);
    /** The burst goes on after the stale flag for long enough to see both instances sell again. */
    static final Duration AFTER_FAULTS = Duration.ofSeconds(3);
    /** Sold out about 2 s into the burst. */
    static final int STOCK = 300;
    /** Given up one after the other (each its own transaction), and each unit sold again at once. */
    static final int POISONED = 12;
    static final int RESTOCK = 200;
    static final Duration HEAL = Duration.ofSeconds(1);
    /** Ample for a pub/sub message to reach both instances once PUBLISH has answered. */
    static final Duration STALE_FLAG_LANDS = Duration.ofMillis(50);

    static final String FLAG_TOPIC = "seckill:sold-out:db0";

    static ChaosCluster cluster;
    static String DB_URL;
    static RedisServer redis;
    static Nginx nginx;
    static Api api;

    @BeforeAll
    static void cluster() throws Exception {
        // Batches of 20: a batch that holds a poisoned order is written again one order per transaction before its
        // poisoned ones are given up. With the default 200 that is most of the held orders, half a minute on a
        // loaded machine between the release and the give-ups; with 20, a few batches (the oldest).
        cluster = ChaosCluster.named("heal", "seckill_chaos_heal")
                .args("--seckill.stream.max-attempts=1", "--seckill.stream.batch-size=20").start();
        DB_URL = cluster.dbUrl();
        redis = cluster.redis();
        nginx = cluster.nginx();
        api = cluster.api();
    }

    @AfterAll
    static void stop() throws Exception {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void aGiveUpAndARestockUnderLoadSellAgainOnBothInstancesWithinASecond() throws Exception {
        long voucherId = api.createVoucher(STOCK);
        List<String> tokens = api.mintShoppers(SHOPPERS);
        // The first shoppers of the burst: their orders are accepted before the sell-out.
        Set<Long> poisoned = new HashSet<>();
        tokens.subList(0, POISONED).forEach(token -> poisoned.add(Tokens.shopperId(token)));
        // No consumer writes any of the voucher's orders until the sell-out: the poisoned ones are accepted
        // early and must be given up late.
        holdOrderWrites(voucherId);
        int row = 0;
        for (long shopper : poisoned) {
            // Far below any generated id (those are time-ordered 64-bit numbers).
            db("INSERT INTO voucher_order (id, user_id, voucher_id, status, created_at) VALUES (?, ?, ?, 'FAILED', NOW(3))",
                    9_000_000_000L + voucherId * 1_000 + row++, shopper, voucherId);
        }

        // The faults wait for the sale's state, not for the clock: on a loaded machine the burst runs late.
        AtomicLong releasedAt = new AtomicLong();
        AtomicLong restockSentAt = new AtomicLong();
        AtomicLong staleFlagAt = new AtomicLong();
        PacedBurst.Result burst = PacedBurst.runUntilFaultsDone(nginx.port(), voucherId, tokens, BURST, 32, List.of(
                new PacedBurst.Fault(Duration.ofSeconds(1), "once sold out, release " + POISONED
                        + " held orders: given up, their units back", () -> {
                    awaitRedis("sold out", Duration.ofSeconds(30), "0", "get", VoucherKeys.stock(voucherId));
                    releasedAt.set(System.nanoTime());
                    redis.cli("del", orderWritesLockName(voucherId));
                }),
                new PacedBurst.Fault(Duration.ofSeconds(1), "once those units sold again, restock +" + RESTOCK
                        + ", then a stale sold-out message to every instance", () -> {
                    awaitRedis("every held order given up", Duration.ofSeconds(45), Integer.toString(POISONED),
                            "hlen", VoucherKeys.failed(voucherId));
                    awaitRedis("sold out again", Duration.ofSeconds(10), "0", "get", VoucherKeys.stock(voucherId));
                    // The rows were the test's means of failing those orders, not orders: gone before the reset counts.
                    db("DELETE FROM voucher_order WHERE voucher_id = ? AND status = 'FAILED'", voucherId);
                    // Not before the held orders are all written: on a loaded machine that can take tens of seconds.
                    Awaitility.await("the restock is taken (no order pending)").atMost(Duration.ofSeconds(30))
                            .pollInterval(Duration.ofMillis(20)).until(() -> {
                                long sentAt = System.nanoTime();
                                boolean taken = api.asAdmin("PUT", "/admin/vouchers/" + voucherId + "/stock",
                                        "{\"stock\":" + RESTOCK + "}").status() == 200;
                                if (taken) {
                                    restockSentAt.set(sentAt);
                                }
                                return taken;
                            });
                    redis.cli("publish", FLAG_TOPIC, "+" + voucherId);
                    staleFlagAt.set(System.nanoTime());
                })), AFTER_FAULTS);
        assertThat(staleFlagAt.get()).as("the restock happened").isNotZero();
        long lastAnswer = burst.timeline().get(burst.timeline().size() - 1).atNanos();
        assertThat(Duration.ofNanos(lastAnswer - staleFlagAt.get())).as("the burst went on long enough to see the heal")
                .isGreaterThan(HEAL.plusMillis(500));

        long drainStart = System.nanoTime();
        JsonNode audit = api.awaitNoPendingOrders(voucherId, Duration.ofSeconds(60));
        Map<Long, Integer> orders = ChaosReport.orderCounts(DB_URL, voucherId);
        ChaosReport.print("6. a give-up and a restock with a stale sold-out flag, mid-burst", burst, orders.keySet(), poisoned,
                audit, drainStart);

        // Between the release and the restock the only units on sale are the given-up ones, one per give-up:
        // the k-th of those sales cannot come before the k-th give-up, and comes within a second of it if every
        // returned unit sells again within a second. Give-ups are timed by their dead letters' ids (Redis's clock,
        // milliseconds), sales by the client's clock: the same machine's.
        List<Long> giveUps = giveUpTimesMillis(voucherId);
        long wallMinusNano = System.currentTimeMillis() * 1_000_000 - System.nanoTime();
        assertThat(giveUps).hasSize(POISONED);
        // Counted from the first give-up, not from the release: on a loaded machine the answer to the sale of
        // the last original unit can arrive after the test saw stock 0 and released the held orders, and no
        // given-up unit can be sold before the first give-up (Redis's clock in whole milliseconds, rounded down).
        long firstGiveUp = Math.max(releasedAt.get(), giveUps.get(0) * 1_000_000 - wallMinusNano);
        List<PacedBurst.Answer> resales = salesBetween(burst, firstGiveUp, restockSentAt.get());
        long slowestResale = 0;
        for (int k = 0; k < Math.min(resales.size(), giveUps.size()); k++) {
            long soldAt = (resales.get(k).atNanos() + wallMinusNano) / 1_000_000;
            slowestResale = Math.max(slowestResale, soldAt - giveUps.get(k));
        }
        Map<String, Integer> resalesPerInstance = new LinkedHashMap<>();
        resales.forEach(sale -> resalesPerInstance.merge(sale.instanceId(), 1, Integer::sum));
        Map<String, Long> afterRestock = firstSaleAfter(burst, staleFlagAt.get(), STALE_FLAG_LANDS);
        System.out.printf("[chaos] given-up units sold again per instance: %s, at most %d ms after their give-up; "
                + "after the stale flag that followed the restock, first 202 per instance to a request sent %d ms or "
                + "more after it: %s ms%n", resalesPerInstance, slowestResale, STALE_FLAG_LANDS.toMillis(), afterRestock);
        // Ends when the restock that took was sent: no restocked unit is sold before it, and the answers to the last
        // given-up units' sales have had the restock's wait to arrive (at least a database round trip: one may still
        // be on its way). The last original unit's answer may arrive after the first give-up.
        assertThat(resales).as("given-up units sold again").hasSizeBetween(POISONED - 1, POISONED + 1);
        assertThat(resalesPerInstance).as("both instances sell given-up units").containsOnlyKeys("heal-1", "heal-2");
        assertThat(slowestResale).as("each given-up unit sold again within a second, ms").isLessThan(HEAL.toMillis());
        assertThat(afterRestock).as("both instances sell the restocked units").containsOnlyKeys("heal-1", "heal-2")
                .allSatisfy((instance, millis) -> assertThat(millis).isLessThan(HEAL.toMillis()));

        assertThat(burst.answers().keySet()).as("orders, sold out, and busy while the reset ran")
                .isSubsetOf("202 accepted", "409 sold-out", "503 voucher-busy", "409 already-ordered");
        assertThat(burst.accepted()).containsAll(poisoned);
        assertThat(orders.keySet()).as("given-up orders are not in MySQL").doesNotContainAnyElementsOf(poisoned);
        assertThat(ordersInMySql(failedOrderIds(voucherId))).as("no FAILED order that MySQL has").isZero();
        Set<Long> confirmed = new HashSet<>(burst.accepted());
        confirmed.removeAll(poisoned);
        assertThat(orders.keySet()).as("every accepted order not given up is in MySQL").containsAll(confirmed);
        assertThat(orders).as("one order per shopper").allSatisfy((shopper, count) -> assertThat(count).isOne());
        Set<Long> unexplained = new HashSet<>(orders.keySet());
        unexplained.removeAll(confirmed);
        unexplained.removeAll(burst.unknown());
        assertThat(unexplained).as("orders of shoppers who were told no").isEmpty();
        assertThat(orders.size()).as("the restocked units were sold").isGreaterThan(STOCK);
        assertThat(audit.path("duplicateBuyers").asLong()).isZero();
        assertThat(audit.path("oversold").asLong()).isZero();
        assertThat(audit.path("failedOrders").asLong()).isEqualTo(POISONED);
        assertThat(audit.path("redisAgrees").asBoolean()).as("Redis and MySQL agree: %s", audit).isTrue();
        assertThat(audit.path("consistent").asBoolean()).as("%s", audit).isTrue();
    }

    /**
     * How long after {@code since} each instance answered its first 202 to a request sent at or after
     * {@code since + sentAfter}. After a stale flag is sent, a margin lets it land first: a request admitted
     * before it landed says nothing about it.
     */
    private static Map<String, Long> firstSaleAfter(PacedBurst.Result burst, long since, Duration sentAfter) {
        Map<String, Long> first = new LinkedHashMap<>();
        for (PacedBurst.Answer answer : burst.timeline()) {
            if (answer.instanceId() != null && !first.containsKey(answer.instanceId())
                    && answer.sentAtNanos() - (since + sentAfter.toNanos()) >= 0 && answer.answer().equals("202 accepted")) {
                first.put(answer.instanceId(), TimeUnit.NANOSECONDS.toMillis(answer.atNanos() - since));
            }
        }
        return first;
    }

    /** The 202s answered between two moments ({@code System.nanoTime()}), in order. */
    private static List<PacedBurst.Answer> salesBetween(PacedBurst.Result burst, long from, long to) {
        return burst.timeline().stream().filter(answer -> answer.atNanos() - from >= 0 && answer.atNanos() - to < 0
                && answer.answer().equals("202 accepted")).toList();
    }

    /** When each order was given up (its dead letter's id: Redis's clock, milliseconds), in order. */
    private static List<Long> giveUpTimesMillis(long voucherId) throws Exception {
        String ids = redis.cli("eval", "local ids = {} for i, entry in ipairs(redis.call('XRANGE', KEYS[1], '-', '+')) "
                + "do ids[i] = entry[1] end return ids", "1", VoucherKeys.deadLetters(voucherId));
        return ids.lines().map(String::trim).filter(id -> !id.isEmpty())
                .map(id -> Long.parseLong(id.substring(0, id.indexOf('-')))).sorted().toList();
    }

    /**
     * The voucher's order-writes lock, held alone by nobody the app knows (a Redisson read-write lock in write
     * mode): its consumers leave its batches for later, and no give-up can have it.
     */
    private static void holdOrderWrites(long voucherId) throws Exception {
        String name = orderWritesLockName(voucherId);
        redis.cli("hset", name, "mode", "write", "chaos-test:1:write", "1");
        redis.cli("pexpire", name, "120000");
    }

    private static void awaitRedis(String what, Duration atMost, String expected, String... command) {
        Awaitility.await(what).atMost(atMost).pollInterval(Duration.ofMillis(5))
                .until(() -> expected.equals(redis.cli(command)));
    }

    private static String orderWritesLockName(long voucherId) {
        return "seckill:lock:order-writes:{" + voucherId + "}";
    }

    private static List<String> failedOrderIds(long voucherId) throws Exception {
        return redis.cli("hkeys", VoucherKeys.failed(voucherId)).lines().map(String::trim).filter(id -> !id.isEmpty())
                .toList();
    }

    private static long ordersInMySql(List<String> orderIds) throws SQLException {
        assertThat(orderIds).hasSize(POISONED);
        try (Connection connection = connect(); PreparedStatement query = connection.prepareStatement(
                "SELECT COUNT(*) FROM voucher_order WHERE id IN (" + String.join(",", orderIds.stream()
                        .map(id -> Long.toString(Long.parseLong(id))).toList()) + ")");
                ResultSet rows = query.executeQuery()) {
            rows.next();
            return rows.getLong(1);
        }
    }

    private static void db(String sql, Object... args) throws SQLException {
        try (Connection connection = connect(); PreparedStatement statement = connection.prepareStatement(sql)) {
            for (int i = 0; i < args.length; i++) {
                statement.setObject(i + 1, args[i]);
            }
            statement.executeUpdate();
        }
    }

    private static Connection connect() throws SQLException {
        Map<String, String> servers = TestServers.properties();
        return DriverManager.getConnection(DB_URL, servers.get("spring.datasource.username"),
                servers.get("spring.datasource.password"));
    }
}
