package dev.seckill.order;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import dev.seckill.id.IdGenerator;
import dev.seckill.salestate.SeckillLocks;
import dev.seckill.sale.buying.OrderEnqueue;
import dev.seckill.sale.buying.PurchaseDecision.Outcome;
import dev.seckill.salestate.VoucherKeys;
import dev.seckill.support.Api.Response;
import dev.seckill.support.OrderWritesHolder;
import dev.seckill.support.Tokens;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.context.TestPropertySource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A shopper whose 202 was lost finds their order, async mode: {@code GET /orders?voucherId}, the
 * {@code orderId} of already-ordered, and {@code Idempotency-Key} replays, while the order is pending,
 * after it reached MySQL, after a sell-out, after it was given up, and after Redis lost its keys.
 */
@TestPropertySource(properties = {"seckill.mode=async", "seckill.web.instance-id=own-order-async-it"})
class OwnOrderAsyncIT extends OwnOrderITSupport {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Autowired
    SeckillLocks locks;

    @Autowired
    OrderEnqueue stream;

    @Autowired
    IdGenerator ids;

    @Test
    void aPendingOrderIsFoundByVoucherNamedByAlreadyOrderedAndReplayedThenTheSameOnceConfirmed() throws Exception {
        long voucherId = api.createVoucher(5);
        List<String> tokens = api.mintShoppers(2);
        String shopper = tokens.get(0);
        String other = tokens.get(1);
        byVoucher(voucherId, shopper).expectProblem(404, "order-not-found");

        Response first;
        String orderId;
        // While the voucher's order writes are held elsewhere no consumer can write the order: it stays pending.
        try (OrderWritesHolder held = new OrderWritesHolder(locks, voucherId)) {
            first = api.seckill(voucherId, shopper).expectStatus(202);
            orderId = orderIdOf(first);

            JsonNode own = ownOrder(voucherId, shopper);
            assertThat(own.path("orderId").asString()).isEqualTo(orderId);
            assertThat(own.path("voucherId").asLong()).isEqualTo(voucherId);
            assertThat(own.path("status").asString()).isEqualTo("PENDING");
            byVoucher(voucherId, other).expectProblem(404, "order-not-found");

            expectAlreadyOrdered(api.seckill(voucherId, shopper), orderId);
            expectReplayOf(first, seckillWithKey(voucherId, shopper, "retry-1"), "PENDING");
            JsonNode audit = api.audit(voucherId);
            assertThat(audit.path("pendingOrders").asLong()).as("nothing queued twice").isEqualTo(1);
            assertThat(audit.path("redisStock").asLong()).as("one unit taken").isEqualTo(4);
        }

        awaitOwnStatus(voucherId, shopper, orderId, "AWAITING_PAYMENT");
        byVoucher(voucherId, other).expectProblem(404, "order-not-found");
        expectAlreadyOrdered(api.seckill(voucherId, shopper), orderId);
        expectReplayOf(first, seckillWithKey(voucherId, shopper, "retry-1"), "AWAITING_PAYMENT");
        // One order per shopper and voucher: any key can only ever be answered with that order.
        expectReplayOf(first, seckillWithKey(voucherId, shopper, "another-key"), "AWAITING_PAYMENT");

        JsonNode audit = api.awaitNoPendingOrders(voucherId, Duration.ofSeconds(20));
        assertThat(audit.path("orders").asLong()).isEqualTo(1);
        assertThat(audit.path("dbStock").asLong()).isEqualTo(4);
        assertThat(audit.path("redisStock").asLong()).isEqualTo(4);
        assertThat(audit.path("consistent").asBoolean()).as(audit.toString()).isTrue();
    }

    @Test
    void aRetryWithItsKeyAfterTheVoucherSoldOutGetsItsOrderBack() throws Exception {
        long voucherId = api.createVoucher(1);
        List<String> tokens = api.mintShoppers(2);
        Response first = api.seckill(voucherId, tokens.get(0)).expectStatus(202);
        api.seckill(voucherId, tokens.get(1)).expectProblem(409, "sold-out"); // the in-memory flag is set now

        expectReplayOf(first, seckillWithKey(voucherId, tokens.get(0), "k"), "PENDING", "AWAITING_PAYMENT");
        assertThat(seckillWithKey(voucherId, tokens.get(1), "k").body()).contains("\"code\":\"sold-out\"");
        // Without a key a sold-out refusal stays free of Redis calls, so it cannot know the buyer.
        api.seckill(voucherId, tokens.get(0)).expectProblem(409, "sold-out");

        api.awaitNoPendingOrders(voucherId, Duration.ofSeconds(20));
        expectReplayOf(first, seckillWithKey(voucherId, tokens.get(0), "k"), "AWAITING_PAYMENT");
        assertThat(api.audit(voucherId).path("orders").asLong()).isEqualTo(1);
    }

    @Test
    void aScriptRunTwiceForTheSameOrderAcceptsItOnce() throws Exception {
        // What Redisson does when the connection dies after Redis ran the script: it sends it again.
        // The shopper's only request must then be told "accepted", not already-ordered.
        long voucherId = api.createVoucher(5);
        String token = api.mintShoppers(1).get(0);
        long shopperId = Tokens.shopperId(token);
        long orderId = ids.next();

        OrderEnqueue.Enqueue once = stream.enqueue(voucherId, shopperId, orderId, System.currentTimeMillis(), null);
        OrderEnqueue.Enqueue twice = stream.enqueue(voucherId, shopperId, orderId, System.currentTimeMillis(), null);
        OrderEnqueue.Enqueue another = stream.enqueue(voucherId, shopperId, ids.next(), System.currentTimeMillis(),
                null);

        assertThat(once.outcome()).isEqualTo(Outcome.ACCEPTED);
        assertThat(twice.outcome()).isEqualTo(Outcome.ACCEPTED);
        assertThat(another.outcome()).isEqualTo(Outcome.ALREADY_BOUGHT);
        assertThat(another.existingOrderId()).isEqualTo(orderId);
        JsonNode audit = api.awaitNoPendingOrders(voucherId, Duration.ofSeconds(20));
        assertThat(audit.path("orders").asLong()).isEqualTo(1);
        assertThat(audit.path("redisStock").asLong()).isEqualTo(4);
        assertThat(audit.path("consistent").asBoolean()).as(audit.toString()).isTrue();
        assertThat(ownOrder(voucherId, token).path("orderId").asString()).isEqualTo(Long.toString(orderId));
    }

    @Test
    void aGivenUpOrderIsFoundAsFailedAndItsShopperMayBuyAgain() throws Exception {
        long voucherId = api.createVoucher(5);
        String token = api.mintShoppers(1).get(0);
        long shopperId = Tokens.shopperId(token);
        // A row MySQL holds against every insert of this shopper's orders (not a confirmed order, so the
        // consumer gives the new one up with its unit back), removed once it has been given up, so
        // that only Redis knows the failed order.
        long poison = 45_000_000L + voucherId;
        db.update("INSERT INTO voucher_order (id, user_id, voucher_id, status, created_at) VALUES (?, ?, ?, 'FAILED', NOW(3))",
                poison, shopperId, voucherId);
        String failed = orderIdOf(api.seckill(voucherId, token).expectStatus(202));
        awaitFailed(failed, token);
        db.update("DELETE FROM voucher_order WHERE id = ?", poison);

        JsonNode own = ownOrder(voucherId, token);
        assertThat(own.path("orderId").asString()).isEqualTo(failed);
        assertThat(own.path("status").asString()).isEqualTo("FAILED");

        // Its unit went back and the shopper left the buyer set: even a retry with a key buys anew
        // rather than being told of an order that will never be.
        HttpResponse<String> again = seckillWithKey(voucherId, token, "after-the-failure");
        assertThat(again.statusCode()).as(again.body()).isEqualTo(202);
        assertThat(again.headers().firstValue("Idempotent-Replayed")).isEmpty();
        String second = JSON.readTree(again.body()).path("orderId").asString();
        assertThat(second).isNotEqualTo(failed);
        awaitOwnStatus(voucherId, token, second, "AWAITING_PAYMENT");
        expectAlreadyOrdered(api.seckill(voucherId, token), second);
    }

    @Test
    void anOrderGivenUpAsADuplicateLeavesTheConfirmedOneToBeNamed() throws Exception {
        long voucherId = api.createVoucher(5);
        String token = api.mintShoppers(1).get(0);
        // A confirmed order Redis does not know of: the new order is given up as its duplicate.
        long confirmed = 46_000_000L + voucherId;
        db.update("INSERT INTO voucher_order (id, user_id, voucher_id, status, created_at) VALUES (?, ?, ?, 'AWAITING_PAYMENT', NOW(3))",
                confirmed, Tokens.shopperId(token), voucherId);
        String duplicate = orderIdOf(api.seckill(voucherId, token).expectStatus(202));
        awaitFailed(duplicate, token);

        assertThat(shopperOrders(voucherId)).as("the index no longer names the duplicate").isEmpty();
        expectAlreadyOrdered(api.seckill(voucherId, token), Long.toString(confirmed));
        JsonNode own = ownOrder(voucherId, token);
        assertThat(own.path("orderId").asString()).isEqualTo(Long.toString(confirmed));
        assertThat(own.path("status").asString()).isEqualTo("AWAITING_PAYMENT");
    }

    @Test
    void theShopperOrderIndexIsRebuiltWithTheStockAfterRedisLostIt() throws Exception {
        long voucherId = api.createVoucher(10);
        List<String> tokens = api.mintShoppers(3);
        String written = orderIdOf(api.seckill(voucherId, tokens.get(0)).expectStatus(202));
        api.awaitNoPendingOrders(voucherId, Duration.ofSeconds(20));
        try (OrderWritesHolder held = new OrderWritesHolder(locks, voucherId)) {
            String pending = orderIdOf(api.seckill(voucherId, tokens.get(1)).expectStatus(202));
            Map<String, String> before = shopperOrders(voucherId);
            assertThat(before).containsExactlyInAnyOrderEntriesOf(Map.of(
                    Long.toString(Tokens.shopperId(tokens.get(0))), written,
                    Long.toString(Tokens.shopperId(tokens.get(1))), pending));

            redisson.getKeys().delete(VoucherKeys.stock(voucherId), VoucherKeys.buyers(voucherId),
                    VoucherKeys.shopperOrders(voucherId));
            api.asAdmin("POST", "/admin/vouchers/" + voucherId + "/reconcile", null).expectStatus(200);

            assertThat(shopperOrders(voucherId)).isEqualTo(before);
            // Only Redis knows the pending one: named from the rebuilt index.
            expectAlreadyOrdered(api.seckill(voucherId, tokens.get(1)), pending);
            expectAlreadyOrdered(api.seckill(voucherId, tokens.get(0)), written);
            api.seckill(voucherId, tokens.get(2)).expectStatus(202);
        }
        JsonNode audit = api.awaitNoPendingOrders(voucherId, Duration.ofSeconds(20));
        assertThat(audit.path("orders").asLong()).isEqualTo(3);
        assertThat(audit.path("consistent").asBoolean()).as(audit.toString()).isTrue();
    }

    @Test
    void aFreshSaleForgetsWhoOrderedWhat() throws Exception {
        long voucherId = api.createVoucher(5);
        String token = api.mintShoppers(1).get(0);
        String first = orderIdOf(api.seckill(voucherId, token).expectStatus(202));
        api.awaitNoPendingOrders(voucherId, Duration.ofSeconds(20));

        api.asAdmin("PUT", "/admin/vouchers/" + voucherId + "/stock", "{\"stock\":5,\"deleteOrders\":true}").expectStatus(200);

        assertThat(shopperOrders(voucherId)).isEmpty();
        byVoucher(voucherId, token).expectProblem(404, "order-not-found");
        String second = orderIdOf(api.seckill(voucherId, token).expectStatus(202));
        assertThat(second).isNotEqualTo(first);
        expectAlreadyOrdered(api.seckill(voucherId, token), second);
    }

    @Test
    void aReplayAfterTheOrderWasCancelled() {
        aReplayAfterTheOrderWasCancelledSaysItIsCancelled();
    }

    @Test
    void badInputs() {
        badInputsAreRefusedAndChangeNothing();
    }

    private void awaitFailed(String orderId, String token) {
        Awaitility.await("order " + orderId + " given up").atMost(Duration.ofSeconds(20))
                .pollInterval(Duration.ofMillis(200))
                .until(() -> "FAILED".equals(api.get("/orders/" + orderId, "Authorization", "Bearer " + token)
                        .expectStatus(200).json().path("status").asString()));
    }
}
