package dev.seckill.chaos;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import dev.seckill.support.Api;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The order's life after the click under real faults, from outside: two instances behind Nginx, each running the
 * expiry scan and the sandbox provider as it misbehaves by default (notifications late, duplicated, out of order).
 * <ul>
 *   <li>Shoppers pay at the very moment their orders expire: each order ends once, PAID with the money taken, or
 *       EXPIRED with none taken (or taken and refunded), and the units back on sale are exactly the expired ones.</li>
 *   <li>An instance killed -9 in the middle of an expiry batch: its batch rolls back, the other instance expires
 *       every order once and pays the Redis returns the dead one owed.</li>
 *   <li>Redis killed -9 and started again from its AOF while units are going back: the returns that failed are
 *       owed, then paid once.</li>
 * </ul>
 */
// In the full suite (-Pchaos, about 3 min): in ./mvnw verify, OrderLifecycleIT and PaymentIT play expiry, payment
// and late notifications on one instance, and RedisChaosIT kills Redis -9 mid-burst.
@RunByScriptsChaos
@Timeout(value = 5, unit = java.util.concurrent.TimeUnit.MINUTES)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class PaymentExpiryChaosIT {

    static ChaosCluster cluster;
    static Api api;

    @BeforeAll
    static void start() throws Exception {
        cluster = ChaosCluster.named("chaos-expiry", "seckill_chaos_expiry").args("--seckill.payment.expiry-scan=200ms")
                .start();
        api = cluster.api();
    }

    @AfterAll
    static void stop() throws Exception {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    @Order(1)
    void payingAtTheMomentOfExpiryEndsEachOrderOnceAndSellsNoUnitTwice() throws Exception {
        int shoppers = 40;
        long voucherId = api.createVoucher(shoppers);
        List<String> tokens = api.mintShoppers(shoppers);
        Map<String, String> checkoutOf = new HashMap<>();
        for (String token : tokens) {
            String order = api.seckill(voucherId, token).expectStatus(202).json().path("orderId").asString();
            checkoutOf.put(order, null);
            Api.Response payment = Awaitility.await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(50))
                    .until(() -> api.post("/orders/" + order + "/payment", null, auth(token)), r -> r.status() == 201);
            checkoutOf.put(order, payment.json().path("checkoutUrl").asString());
        }
        // Due in three seconds, by MySQL's clock (Connector/J drops the milliseconds of a timestamp it sends to MariaDB);
        // the provider would take payments for a minute more, so the clicks race the expiry: one every 50 ms from
        // 1.5 s before pay_by to 0.5 s after it.
        sql("UPDATE voucher_order SET pay_by = TIMESTAMPADD(MICROSECOND, 3000000, UTC_TIMESTAMP(3)) WHERE voucher_id = ?",
                voucherId);
        Instant payBy = Instant.now().plusSeconds(3);
        sql("UPDATE sandbox_payment SET pay_by = TIMESTAMPADD(MINUTE, 1, UTC_TIMESTAMP(3))");

        ExecutorService clicks = Executors.newFixedThreadPool(shoppers);
        List<Future<Integer>> answers = new ArrayList<>();
        int i = 0;
        for (String checkout : checkoutOf.values()) {
            long at = payBy.toEpochMilli() - 1_500 + 50L * i++;
            answers.add(clicks.submit(() -> {
                Thread.sleep(Math.max(0, at - System.currentTimeMillis()));
                return api.postForm(checkout, "action=pay", "Accept", "application/json").status();
            }));
        }
        int paidAtCheckout = 0;
        for (Future<Integer> answer : answers) {
            int status = answer.get();
            assertThat(status).as("the checkout pays (200) or says the payment was closed (409)").isIn(200, 409);
            paidAtCheckout += status == 200 ? 1 : 0;
        }
        clicks.shutdown();
        assertThat(paidAtCheckout).as("some clicks came before the expiry, in this run").isPositive();

        Awaitility.await("every order ended and every notification handled").atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(250)).until(() -> count("SELECT COUNT(*) FROM voucher_order o "
                        + "JOIN sandbox_payment s ON s.order_id = o.id WHERE o.voucher_id = " + voucherId
                        + " AND (o.status = 'AWAITING_PAYMENT' OR (s.status = 'PAID' AND o.status <> 'PAID')"
                        + " OR (s.status = 'REFUNDED' AND o.status <> 'REFUNDED'))") == 0);

        Map<String, Long> outcomes = outcomes(voucherId);
        System.out.printf("Paid at the moment of expiry, %d orders through Nginx: %s%n", shoppers, outcomes);
        assertThat(outcomes.keySet()).as("order status / provider status").isSubsetOf("PAID/PAID", "EXPIRED/CLOSED",
                "REFUNDED/REFUNDED");
        assertThat(outcomes.getOrDefault("REFUNDED/REFUNDED", 0L)).as("a provider that honours the close takes no "
                + "payment for an order that expired: the expiry finds it paid when it closes it").isZero();
        assertThat(outcomes.getOrDefault("PAID/PAID", 0L) + outcomes.getOrDefault("REFUNDED/REFUNDED", 0L))
                .as("every payment the provider took").isEqualTo(paidAtCheckout);
        long endedUnpaid = outcomes.getOrDefault("EXPIRED/CLOSED", 0L) + outcomes.getOrDefault("REFUNDED/REFUNDED", 0L);
        assertConsistent(voucherId, endedUnpaid);
    }

    /** Last: the cluster goes on with one instance (Nginx sends everything to it), which is the point. */
    @Test
    @Order(3)
    void anInstanceKilledInTheMiddleOfAnExpiryBatchLeavesNothingExpiredTwiceOrNotAtAll() throws Exception {
        int orders = 1_200;
        long voucherId = dueOrders(orders);
        Instant before = Instant.now();
        sql("UPDATE voucher_order SET pay_by = TIMESTAMPADD(SECOND, -1, UTC_TIMESTAMP(3)) WHERE voucher_id = ?", voucherId);
        Awaitility.await("the expiry under way").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(10))
                .until(() -> expired(voucherId) >= 200);
        cluster.instance(1).kill();
        long expiredAtKill = expired(voucherId);
        System.out.printf("Instance 1 killed -9 %d ms into the expiry, with %d of %d orders expired%n",
                Duration.between(before, Instant.now()).toMillis(), expiredAtKill, orders);
        assertThat(expiredAtKill).as("killed in the middle, not after").isLessThan(orders);

        Awaitility.await("the other instance expired the rest").atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(250)).until(() -> expired(voucherId) == orders);
        assertConsistent(voucherId, orders);
    }

    @Test
    @Order(2)
    void redisKilledWhileUnitsGoBackOwesThemAndPaysThemOnce() throws Exception {
        int orders = 800;
        long voucherId = dueOrders(orders);
        sql("UPDATE voucher_order SET pay_by = TIMESTAMPADD(SECOND, -1, UTC_TIMESTAMP(3)) WHERE voucher_id = ?", voucherId);
        Awaitility.await("the expiry under way").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(10))
                .until(() -> expired(voucherId) >= 100);
        cluster.redis().kill();
        long expiredAtKill = expired(voucherId);
        Thread.sleep(1_000);
        cluster.redis().restart();
        System.out.printf("Redis killed -9 with %d of %d orders expired, restarted from its AOF a second later%n",
                expiredAtKill, orders);
        assertThat(expiredAtKill).as("killed in the middle, not after").isLessThan(orders);

        Awaitility.await("every order expired").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(250))
                .until(() -> expired(voucherId) == orders);
        assertConsistent(voucherId, orders);
        assertThat(api.audit(voucherId).path("redisDataLost").asBoolean()).as("the AOF kept everything").isFalse();
    }

    /** The stock and the Redis counter hold exactly the units of the orders that ended unpaid, each returned once. */
    private static void assertConsistent(long voucherId, long endedUnpaid) {
        Awaitility.await("Redis took back every unit owed").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(250))
                .untilAsserted(() -> {
                    JsonNode audit = api.audit(voucherId);
                    assertThat(audit.path("lifecycle").path("returnsOwed").asLong()).as("%s", audit).isZero();
                    assertThat(audit.path("dbStock").asLong()).as("%s", audit).isEqualTo(endedUnpaid);
                    assertThat(audit.path("redisStock").asLong()).as("%s", audit).isEqualTo(endedUnpaid);
                    assertThat(audit.path("lifecycle").path("unitsReturnedToRedis").asLong()).as("%s", audit)
                            .isEqualTo(endedUnpaid);
                    assertThat(audit.path("consistent").asBoolean()).as("%s", audit).isTrue();
                });
    }

    /**
     * A voucher whose {@code orders} units are all held by orders awaiting payment (written straight to MySQL: minting
     * and buying thousands through the API would take most of the scenario's time), due in an hour; Redis rebuilt from
     * MySQL by the admin's reconcile. Moving {@code pay_by} into the past starts the expiry.
     */
    private static long dueOrders(int orders) throws SQLException {
        long voucherId = api.createVoucher(orders);
        long base = System.currentTimeMillis() << 12;
        Timestamp now = Timestamp.from(Instant.now());
        Timestamp payBy = Timestamp.from(Instant.now().plus(Duration.ofHours(1)));
        try (Connection db = ChaosCluster.admin(cluster.dbUrl())) {
            db.setAutoCommit(false);
            try (PreparedStatement insert = db.prepareStatement("INSERT INTO voucher_order "
                    + "(id, user_id, voucher_id, status, created_at, pay_by) VALUES (?, ?, ?, 'AWAITING_PAYMENT', ?, ?)")) {
                for (int i = 0; i < orders; i++) {
                    insert.setLong(1, base + i);
                    insert.setLong(2, base + i);
                    insert.setLong(3, voucherId);
                    insert.setTimestamp(4, now);
                    insert.setTimestamp(5, payBy);
                    insert.addBatch();
                }
                insert.executeBatch();
            }
            try (Statement statement = db.createStatement()) {
                statement.executeUpdate("UPDATE seckill_voucher SET stock = 0 WHERE voucher_id = " + voucherId);
            }
            db.commit();
        }
        api.asAdmin("POST", "/admin/vouchers/" + voucherId + "/reconcile", null).expectStatus(200);
        JsonNode audit = api.audit(voucherId);
        assertThat(audit.path("consistent").asBoolean()).as("%s", audit).isTrue();
        assertThat(audit.path("redisStock").asLong()).isZero();
        return voucherId;
    }

    private static Map<String, Long> outcomes(long voucherId) throws SQLException {
        Map<String, Long> outcomes = new HashMap<>();
        try (Connection db = ChaosCluster.admin(cluster.dbUrl()); Statement statement = db.createStatement();
                ResultSet rows = statement.executeQuery("SELECT o.status, s.status FROM voucher_order o "
                        + "JOIN sandbox_payment s ON s.order_id = o.id WHERE o.voucher_id = " + voucherId)) {
            while (rows.next()) {
                outcomes.merge(rows.getString(1) + "/" + rows.getString(2), 1L, Long::sum);
            }
        }
        return outcomes;
    }

    private static long expired(long voucherId) throws SQLException {
        return count("SELECT COUNT(*) FROM voucher_order WHERE status = 'EXPIRED' AND voucher_id = " + voucherId);
    }

    private static long count(String query) throws SQLException {
        try (Connection db = ChaosCluster.admin(cluster.dbUrl()); Statement statement = db.createStatement();
                ResultSet rows = statement.executeQuery(query)) {
            rows.next();
            return rows.getLong(1);
        }
    }

    private static void sql(String update, Object... args) throws SQLException {
        try (Connection db = ChaosCluster.admin(cluster.dbUrl()); PreparedStatement statement = db.prepareStatement(update)) {
            for (int i = 0; i < args.length; i++) {
                statement.setObject(i + 1, args[i]);
            }
            statement.executeUpdate();
        }
    }

    private static String[] auth(String token) {
        return new String[] {"Authorization", "Bearer " + token};
    }
}
