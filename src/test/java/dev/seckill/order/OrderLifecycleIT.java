package dev.seckill.order;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import dev.seckill.salestate.StockCache;
import dev.seckill.salestate.UnitReturns;
import dev.seckill.support.Api.Response;
import dev.seckill.support.IntegrationTest;
import dev.seckill.support.Tokens;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * After the click, against the real servers: an order waits for its payment; expired and cancelled orders give their
 * unit back to MySQL and to Redis once each, whoever races whom, and the unit is sold again to the next shopper.
 */
class OrderLifecycleIT extends IntegrationTest {

    @Autowired
    OrderExpiry expiry;

    @Autowired
    OrderSettlement lifecycle;

    @Autowired
    OrderTransitions endings;

    @Autowired
    UnitReturns unitReturns;

    @Autowired
    StockCache stock;

    @Autowired
    JdbcTemplate jdbc;

    @Test
    void aCancelledOrdersUnitIsSoldAgainToTheNextShopperAndItsShopperCannotBuyItBack() {
        long voucherId = api.createVoucher(1);
        List<String> shoppers = api.mintShoppers(2);
        String first = shoppers.get(0);
        String second = shoppers.get(1);
        String order = api.seckill(voucherId, first).expectStatus(202).json().path("orderId").asString();
        api.awaitNoPendingOrders(voucherId, Duration.ofSeconds(10));
        JsonNode awaiting = api.get("/orders/" + order, auth(first)).expectStatus(200).json();
        assertThat(awaiting.path("status").asString()).isEqualTo("AWAITING_PAYMENT");
        assertThat(awaiting.path("secondsLeft").asLong()).isBetween(14 * 60L, 15 * 60L);
        api.seckill(voucherId, second).expectProblem(409, "sold-out");

        Response cancelled = api.post("/orders/" + order + "/cancel", null, auth(first)).expectStatus(200);
        assertThat(cancelled.json().path("status").asString()).isEqualTo("CANCELLED");
        // sent again (a lost answer): the same answer, and no second unit
        api.post("/orders/" + order + "/cancel", null, auth(first)).expectStatus(200);

        // The unit is back on sale, but not for the shopper who let it go: they hold their (cancelled) order.
        Response again = api.seckill(voucherId, first).expectProblem(409, "already-ordered");
        assertThat(again.json().path("orderId").asString()).isEqualTo(order);
        await().atMost(Duration.ofSeconds(5)).until(() -> api.seckill(voucherId, second).status() == 202);
        JsonNode audit = api.awaitNoPendingOrders(voucherId, Duration.ofSeconds(10));
        assertThat(audit.path("consistent").asBoolean()).as(audit.toString()).isTrue();
        assertThat(audit.path("redisStock").asLong()).isZero();
        assertThat(audit.path("lifecycle").path("cancelled").asLong()).isEqualTo(1);
        assertThat(audit.path("lifecycle").path("awaitingPayment").asLong()).isEqualTo(1);
        assertThat(audit.path("lifecycle").path("unitsReturnedToRedis").asLong()).isEqualTo(1);
    }

    /**
     * A voucher created with a short payment window of its own, on instances whose window is 15 minutes: its order
     * (async path) waits that long, expires, and its unit is sold again, as the buy-and-pay load plan needs against a
     * cluster started with the defaults.
     */
    @Test
    void anOrderWaitsAsLongAsItsVouchersPaymentWindowThenItsUnitIsSoldAgain() {
        Instant now = Instant.now();
        long voucherId = api.asAdmin("POST", "/admin/vouchers", """
                {"title":"Ten seconds to pay","price":1.00,"stock":1,"beginTime":"%s","endTime":"%s","paymentWindow":"PT10S"}"""
                .formatted(now.minusSeconds(60), now.plusSeconds(3600))).expectStatus(201).json().path("id").asLong();
        List<String> shoppers = api.mintShoppers(2);
        String order = api.seckill(voucherId, shoppers.get(0)).expectStatus(202).json().path("orderId").asString();
        api.awaitNoPendingOrders(voucherId, Duration.ofSeconds(10));
        JsonNode awaiting = api.get("/orders/" + order, auth(shoppers.get(0))).expectStatus(200).json();
        assertThat(awaiting.path("status").asString()).isEqualTo("AWAITING_PAYMENT");
        assertThat(Duration.between(Instant.parse(awaiting.path("createdAt").asString()),
                Instant.parse(awaiting.path("payBy").asString()))).isEqualTo(Duration.ofSeconds(10));
        api.seckill(voucherId, shoppers.get(1)).expectProblem(409, "sold-out");

        await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(200)).until(() ->
                api.get("/orders/" + order, auth(shoppers.get(0))).json().path("status").asString().equals("EXPIRED"));
        await().atMost(Duration.ofSeconds(5)).until(() -> api.seckill(voucherId, shoppers.get(1)).status() == 202);
        JsonNode audit = api.awaitNoPendingOrders(voucherId, Duration.ofSeconds(10));
        assertThat(audit.path("consistent").asBoolean()).as(audit.toString()).isTrue();
        assertThat(audit.path("lifecycle").path("expired").asLong()).isEqualTo(1);
        assertThat(audit.path("lifecycle").path("awaitingPayment").asLong()).isEqualTo(1);
    }

    @Test
    void onlyItsShopperMayCancelAnOrderAndAnEndedOneIsRefusedInWords() {
        long voucherId = api.createVoucher(2);
        List<String> shoppers = api.mintShoppers(2);
        String order = api.seckill(voucherId, shoppers.get(0)).expectStatus(202).json().path("orderId").asString();
        api.awaitNoPendingOrders(voucherId, Duration.ofSeconds(10));

        api.post("/orders/" + order + "/cancel", null, auth(shoppers.get(1))).expectProblem(404, "order-not-found");
        pushPayByIntoThePast(Long.parseLong(order));
        expiry.expireAllDue();

        api.post("/orders/" + order + "/cancel", null, auth(shoppers.get(0))).expectProblem(409, "order-expired");
        api.post("/orders/" + order + "/payment", null, auth(shoppers.get(0))).expectProblem(409, "order-expired");
        assertThat(api.get("/orders/" + order, auth(shoppers.get(0))).json().path("status").asString()).isEqualTo("EXPIRED");
        JsonNode audit = api.audit(voucherId);
        assertThat(audit.path("consistent").asBoolean()).as(audit.toString()).isTrue();
        assertThat(audit.path("dbStock").asLong()).isEqualTo(2);
        assertThat(audit.path("redisStock").asLong()).isEqualTo(2);
    }

    /**
     * The shopper's cancel, a payment and the expiry, all at once on every order, several times over: each order ends
     * in exactly one state, and the units given back are exactly the orders that ended unpaid, in MySQL and in Redis.
     * An unguarded UPDATE (by id alone) lets two of them win on one order, and a unit goes back twice or a paid order's
     * unit is sold again.
     */
    @Test
    void cancelPaymentAndExpiryRacingOnEveryOrderEndEachOnceAndReturnEachUnitOnce() throws Exception {
        int orders = 40;
        long voucherId = api.createVoucher(orders);
        List<String> shoppers = api.mintShoppers(orders);
        Map<Long, String> tokenOf = new ConcurrentHashMap<>();
        for (String shopper : shoppers) {
            tokenOf.put(api.seckill(voucherId, shopper).expectStatus(202).json().path("orderId").asLong(), shopper);
        }
        api.awaitNoPendingOrders(voucherId, Duration.ofSeconds(10));
        tokenOf.keySet().forEach(this::pushPayByIntoThePast);

        ExecutorService pool = Executors.newFixedThreadPool(12);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<?>> racers = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            racers.add(pool.submit(() -> {
                start.await();
                return expiry.expireAllDue();
            }));
        }
        tokenOf.forEach((order, token) -> {
            racers.add(pool.submit(() -> {
                start.await();
                return api.post("/orders/" + order + "/cancel", null, auth(token)).status();
            }));
            racers.add(pool.submit(() -> {
                start.await();
                return lifecycle.paid(order);
            }));
        });
        start.countDown();
        for (Future<?> racer : racers) {
            racer.get();
        }
        pool.shutdown();

        Map<String, Long> byStatus = new ConcurrentHashMap<>();
        for (long order : tokenOf.keySet()) {
            byStatus.merge(jdbc.queryForObject("SELECT status FROM voucher_order WHERE id = ?", String.class, order), 1L,
                    Long::sum);
        }
        assertThat(byStatus.keySet()).isSubsetOf("PAID", "EXPIRED", "CANCELLED");
        assertThat(byStatus.values().stream().mapToLong(Long::longValue).sum()).isEqualTo(orders);
        long endedUnpaid = byStatus.getOrDefault("EXPIRED", 0L) + byStatus.getOrDefault("CANCELLED", 0L);
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            JsonNode audit = api.audit(voucherId);
            assertThat(audit.path("dbStock").asLong()).as(audit.toString()).isEqualTo(endedUnpaid);
            assertThat(audit.path("redisStock").asLong()).as(audit.toString()).isEqualTo(endedUnpaid);
            assertThat(audit.path("lifecycle").path("paid").asLong()).isEqualTo(byStatus.getOrDefault("PAID", 0L));
            assertThat(audit.path("consistent").asBoolean()).as(audit.toString()).isTrue();
        });
    }

    @Test
    void aUnitGoesBackToRedisOnceHoweverOftenAndByHowManyItIsAsked() throws Exception {
        long voucherId = api.createVoucher(3);
        long before = stock.read(voucherId).orElseThrow();
        long orderId = System.nanoTime();
        ExecutorService pool = Executors.newFixedThreadPool(8);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<UnitReturns.Outcome>> askers = new ArrayList<>();
        for (int i = 0; i < 16; i++) {
            askers.add(pool.submit(() -> {
                start.await();
                return unitReturns.giveBack(voucherId, orderId);
            }));
        }
        start.countDown();
        List<UnitReturns.Outcome> outcomes = new ArrayList<>();
        for (Future<UnitReturns.Outcome> asker : askers) {
            outcomes.add(asker.get());
        }
        pool.shutdown();

        assertThat(outcomes).containsOnlyOnce(UnitReturns.Outcome.RETURNED);
        assertThat(stock.read(voucherId).orElseThrow()).isEqualTo(before + 1);
    }

    /**
     * The instance dies between the commit that ended an order and the Redis half of its return (here: the Redis half
     * is simply never run): the unit is owed, the audit says so, and the next scan of any instance pays it once.
     */
    @Test
    void aReturnOwedToRedisIsPaidByTheNextScanOnce() {
        long voucherId = api.createVoucher(1);
        String shopper = api.mintShoppers(1).get(0);
        long order = api.seckill(voucherId, shopper).expectStatus(202).json().path("orderId").asLong();
        api.awaitNoPendingOrders(voucherId, Duration.ofSeconds(10));

        assertThat(endings.cancel(order, Tokens.shopperId(shopper), voucherId)).isTrue();
        JsonNode owed = api.audit(voucherId);
        assertThat(owed.path("lifecycle").path("returnsOwed").asLong()).as(owed.toString()).isEqualTo(1);
        assertThat(owed.path("dbStock").asLong()).isEqualTo(1);
        assertThat(owed.path("redisStock").asLong()).isZero();
        assertThat(owed.path("consistent").asBoolean()).as("a unit owed is accounted for: " + owed).isTrue();

        await().atMost(Duration.ofSeconds(15)).untilAsserted(() -> {
            JsonNode audit = api.audit(voucherId);
            assertThat(audit.path("lifecycle").path("returnsOwed").asLong()).as(audit.toString()).isZero();
            assertThat(audit.path("redisStock").asLong()).isEqualTo(1);
            assertThat(audit.path("consistent").asBoolean()).isTrue();
        });
        assertThat(unitReturns.giveBack(voucherId, order)).isEqualTo(UnitReturns.Outcome.ALREADY_RETURNED);
        assertThat(stock.read(voucherId).orElseThrow()).isEqualTo(1);
    }

    /**
     * Redis lost the counter while a return was owed: the return waits (it never recreates a counter), the rebuild
     * counts the unit from MySQL and marks it returned, and the return that comes afterwards adds nothing.
     */
    @Test
    void aReturnOwedWhenRedisLostTheCounterIsCountedOnceByTheRebuild() {
        long voucherId = api.createVoucher(1);
        String shopper = api.mintShoppers(1).get(0);
        long order = api.seckill(voucherId, shopper).expectStatus(202).json().path("orderId").asLong();
        api.awaitNoPendingOrders(voucherId, Duration.ofSeconds(10));
        assertThat(endings.cancel(order, Tokens.shopperId(shopper), voucherId)).isTrue();
        stock.forget(voucherId);
        assertThat(unitReturns.giveBack(voucherId, order)).isEqualTo(UnitReturns.Outcome.NOT_CACHED);

        api.asAdmin("POST", "/admin/vouchers/" + voucherId + "/reconcile", null).expectStatus(200);
        assertThat(unitReturns.giveBack(voucherId, order)).isEqualTo(UnitReturns.Outcome.ALREADY_RETURNED);
        assertThat(stock.read(voucherId).orElseThrow()).isEqualTo(1);
        await().atMost(Duration.ofSeconds(15)).untilAsserted(() -> {
            JsonNode audit = api.audit(voucherId);
            assertThat(audit.path("lifecycle").path("returnsOwed").asLong()).as(audit.toString()).isZero();
            assertThat(audit.path("redisStock").asLong()).isEqualTo(1);
            assertThat(audit.path("consistent").asBoolean()).isTrue();
        });
    }

    /** As if the order had been accepted a window and a second ago: the next scan finds it due. */
    private void pushPayByIntoThePast(long orderId) {
        jdbc.update("UPDATE voucher_order SET pay_by = TIMESTAMPADD(SECOND, -1, UTC_TIMESTAMP(3)) WHERE id = ?", orderId);
    }

    private static String[] auth(String token) {
        return new String[] {"Authorization", "Bearer " + token};
    }
}
