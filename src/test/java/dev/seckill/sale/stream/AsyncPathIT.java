package dev.seckill.sale.stream;

import java.time.Duration;
import java.util.List;

import dev.seckill.salestate.SeckillLocks;
import dev.seckill.salestate.VoucherKeys;
import dev.seckill.support.OrderWritesHolder;
import dev.seckill.support.Api.Response;
import dev.seckill.support.IntegrationTest;
import dev.seckill.support.Tokens;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.TestPropertySource;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/** The async path end to end on one real instance: statuses, poison orders, sold-out flags, reconcile. */
// A sold-out flag trusted for a minute: the flag test below asserts a refusal from memory, which a re-check
// (500 ms by default) on a slow machine would turn into a Redis read. SoldOutFlagsTest covers the re-check.
@TestPropertySource(properties = {"seckill.mode=async", "seckill.web.instance-id=async-path-it",
        "seckill.stock.sold-out-recheck=1m"})
class AsyncPathIT extends IntegrationTest {

    @Autowired
    RedissonClient redisson;

    @Autowired
    JdbcTemplate db;

    @Autowired
    SeckillLocks locks;

    @Test
    void anOrderIsPendingUntilAConsumerWritesItThenConfirmed() throws Exception {
        long voucherId = api.createVoucher(5);
        String token = api.mintShoppers(1).get(0);
        String orderId;
        // While the voucher's order writes are held elsewhere, no consumer may write the order: it waits.
        try (OrderWritesHolder held = new OrderWritesHolder(locks, voucherId)) {
            Response placed = api.seckill(voucherId, token).expectStatus(202);
            orderId = placed.json().path("orderId").asString();
            assertThat(placed.json().path("status").asString()).isEqualTo("PENDING");
            Thread.sleep(300); // time for a consumer to try, on purpose: the order must still be pending after it
            assertThat(order(orderId, token).path("status").asString()).isEqualTo("PENDING");
            JsonNode audit = api.audit(voucherId);
            assertThat(audit.path("pendingOrders").asLong()).isEqualTo(1);
            assertThat(audit.path("consistent").asBoolean()).as("Redis minus pending agrees: " + audit).isTrue();
        }
        awaitStatus(orderId, token, "AWAITING_PAYMENT");
        JsonNode audit = api.audit(voucherId);
        assertThat(audit.path("orders").asLong()).isEqualTo(1);
        assertThat(audit.path("pendingOrders").asLong()).isZero();
        assertThat(audit.path("consistent").asBoolean()).isTrue();
        api.seckill(voucherId, token).expectProblem(409, "already-ordered");
    }

    @Test
    void aPoisonOrderEndsInTheDeadLetterStreamWithItsCompensation() throws Exception {
        long voucherId = api.createVoucher(5);
        String token = api.mintShoppers(1).get(0);
        long shopperId = shopperId(token);
        // MySQL already holds a row of this shopper that is not a confirmed order and that Redis does not
        // know of: every attempt to insert the new one breaks the unique key, which no retry will cure.
        poisonShopper(voucherId, shopperId, 42_000_000L + voucherId, "FAILED");

        String orderId = api.seckill(voucherId, token).expectStatus(202).json().path("orderId").asString();

        awaitStatus(orderId, token, "FAILED");
        JsonNode audit = api.audit(voucherId);
        assertThat(audit.path("deadLetters").asLong()).isEqualTo(1);
        assertThat(audit.path("failedOrders").asLong()).isEqualTo(1);
        assertThat(audit.path("pendingOrders").asLong()).isZero();
        assertThat(audit.path("redisStock").asLong()).as("the unit is back").isEqualTo(5);
        assertThat(audit.path("dbStock").asLong()).as("the failed inserts took nothing").isEqualTo(5);
        assertThat(redisson.getSet(VoucherKeys.buyers(voucherId), StringCodec.INSTANCE)
                .contains(Long.toString(shopperId))).as("the shopper may buy again").isFalse();
        assertThat(redisson.getStream(VoucherKeys.deadLetters(voucherId), StringCodec.INSTANCE).size()).isEqualTo(1);
    }

    @Test
    void anOrderRefusedBecauseItsShopperHoldsAConfirmedOrderKeepsItsUnitAndItsBuyer() throws Exception {
        long voucherId = api.createVoucher(5);
        String token = api.mintShoppers(1).get(0);
        long shopperId = shopperId(token);
        // A confirmed order Redis does not know of (written by the other path, or given up by mistake
        // while it was in MySQL): it holds the shopper's unit. Handing the new order's unit back would
        // sell it twice, freeing the buyer would let the shopper try again and again.
        poisonShopper(voucherId, shopperId, 44_000_000L + voucherId, "AWAITING_PAYMENT");

        String orderId = api.seckill(voucherId, token).expectStatus(202).json().path("orderId").asString();

        awaitStatus(orderId, token, "FAILED");
        JsonNode audit = api.audit(voucherId);
        assertThat(audit.path("pendingOrders").asLong()).isZero();
        assertThat(audit.path("failedOrders").asLong()).isEqualTo(1);
        assertThat(audit.path("deadLetters").asLong()).isEqualTo(1);
        assertThat(audit.path("redisStock").asLong()).as("no unit back").isEqualTo(4);
        assertThat(audit.path("dbStock").asLong()).isEqualTo(5);
        assertThat(redisson.getSet(VoucherKeys.buyers(voucherId), StringCodec.INSTANCE)
                .contains(Long.toString(shopperId))).as("still a buyer").isTrue();
        assertThat(redisson.getStream(VoucherKeys.deadLetters(voucherId), StringCodec.INSTANCE)
                .range(org.redisson.api.stream.StreamMessageId.MIN, org.redisson.api.stream.StreamMessageId.MAX).values())
                .singleElement().satisfies(entry -> assertThat(entry).containsEntry("compensated", "0"));
        api.seckill(voucherId, token).expectProblem(409, "already-ordered");
    }

    @Test
    void aUnitReturnedByAGivenUpOrderCanBeSoldAgainAfterASellOut() throws Exception {
        long voucherId = api.createVoucher(1);
        List<String> tokens = api.mintShoppers(2);
        long poisoned = shopperId(tokens.get(0));
        poisonShopper(voucherId, poisoned, 43_000_000L + voucherId, "FAILED");
        String orderId = api.seckill(voucherId, tokens.get(0)).expectStatus(202).json().path("orderId").asString();
        api.seckill(voucherId, tokens.get(1)).expectProblem(409, "sold-out"); // the flag is set now

        awaitStatus(orderId, tokens.get(0), "FAILED");
        String second = api.seckill(voucherId, tokens.get(1)).expectStatus(202).json().path("orderId").asString();
        awaitStatus(second, tokens.get(1), "AWAITING_PAYMENT");
    }

    @Test
    void afterSellingOutEveryInstanceRefusesFromMemoryUntilTheStockIsReset() throws Exception {
        long voucherId = api.createVoucher(1);
        List<String> tokens = api.mintShoppers(3);
        api.seckill(voucherId, tokens.get(0)).expectStatus(202);
        api.seckill(voucherId, tokens.get(1)).expectProblem(409, "sold-out");

        // With the counter gone, only the local flag can still say "sold out".
        redisson.getBucket(VoucherKeys.stock(voucherId), StringCodec.INSTANCE).delete();
        api.seckill(voucherId, tokens.get(2)).expectProblem(409, "sold-out");
        assertThat(redisson.getBucket(VoucherKeys.stock(voucherId), StringCodec.INSTANCE).isExists())
                .as("refused without touching Redis").isFalse();

        api.awaitNoPendingOrders(voucherId, Duration.ofSeconds(20));
        api.asAdmin("PUT", "/admin/vouchers/" + voucherId + "/stock", "{\"stock\":1}").expectStatus(200);
        awaitStatus(api.seckill(voucherId, tokens.get(2)).expectStatus(202).json().path("orderId").asString(),
                tokens.get(2), "AWAITING_PAYMENT");
    }

    @Test
    void reconcileRebuildsStockAndBuyersAfterRedisLostThem() throws Exception {
        long voucherId = api.createVoucher(10);
        List<String> tokens = api.mintShoppers(4);
        api.seckill(voucherId, tokens.get(0)).expectStatus(202);
        api.seckill(voucherId, tokens.get(1)).expectStatus(202);
        api.awaitNoPendingOrders(voucherId, Duration.ofSeconds(20));

        redisson.getKeys().delete(VoucherKeys.stock(voucherId), VoucherKeys.buyers(voucherId));
        JsonNode report = api.asAdmin("POST", "/admin/vouchers/" + voucherId + "/reconcile", null).expectStatus(200).json();
        assertThat(report.path("redisStock").asLong()).isEqualTo(8);
        assertThat(report.path("buyers").asLong()).isEqualTo(2);
        api.seckill(voucherId, tokens.get(0)).expectProblem(409, "already-ordered");

        // A request that finds the counter gone rebuilds it by itself.
        redisson.getKeys().delete(VoucherKeys.stock(voucherId), VoucherKeys.buyers(voucherId));
        api.seckill(voucherId, tokens.get(1)).expectProblem(409, "already-ordered");
        api.seckill(voucherId, tokens.get(2)).expectStatus(202);
        api.awaitNoPendingOrders(voucherId, Duration.ofSeconds(20));
        JsonNode audit = api.audit(voucherId);
        assertThat(audit.path("orders").asLong()).isEqualTo(3);
        assertThat(audit.path("consistent").asBoolean()).as(audit.toString()).isTrue();
    }

    @Test
    void aResetWaitsForOrdersStillOnTheirWay() throws Exception {
        long voucherId = api.createVoucher(5);
        String token = api.mintShoppers(1).get(0);
        try (OrderWritesHolder held = new OrderWritesHolder(locks, voucherId)) {
            api.seckill(voucherId, token).expectStatus(202);
            api.asAdmin("PUT", "/admin/vouchers/" + voucherId + "/stock", "{\"stock\":9}").expectProblem(409, "orders-pending");
        }
        api.awaitNoPendingOrders(voucherId, Duration.ofSeconds(20));
        api.asAdmin("PUT", "/admin/vouchers/" + voucherId + "/stock", "{\"stock\":9}").expectStatus(200);
    }

    /** A row that the unique key (user_id, voucher_id) holds against every new order of the shopper. */
    private void poisonShopper(long voucherId, long shopperId, long orderId, String status) {
        db.update("INSERT INTO voucher_order (id, user_id, voucher_id, status, created_at) VALUES (?, ?, ?, ?, NOW(3))",
                orderId, shopperId, voucherId, status);
    }

    private static long shopperId(String token) {
        return Tokens.shopperId(token);
    }

    private JsonNode order(String orderId, String token) {
        return api.get("/orders/" + orderId, "Authorization", "Bearer " + token).expectStatus(200).json();
    }

    /** Polls like a shopper's page would, well inside the per-shopper order-read limit. */
    private void awaitStatus(String orderId, String token, String status) {
        Awaitility.await("order " + orderId + " becomes " + status).atMost(Duration.ofSeconds(20))
                .pollInterval(Duration.ofMillis(200))
                .until(() -> status.equals(order(orderId, token).path("status").asString()));
    }

}
