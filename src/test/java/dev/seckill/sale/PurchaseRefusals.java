package dev.seckill.sale;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import dev.seckill.salestate.VoucherKeys;
import dev.seckill.support.Api.Response;
import dev.seckill.support.IntegrationTest;
import dev.seckill.support.Tokens;
import org.junit.jupiter.api.Test;
import org.redisson.api.RedissonClient;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every answer of POST /seckill/{id} and GET /orders/{id}, each through a real instance, run once per mode
 * ({@link SyncRefusalsIT}, {@link AsyncRefusalsIT}): the same situation gets the same answer in both.
 */
abstract class PurchaseRefusals extends IntegrationTest {

    /** 201 AWAITING_PAYMENT in sync mode (in MySQL already), 202 PENDING in async mode (on its way). */
    abstract int accepted();

    /** The audit once every accepted order is in MySQL (at once in sync mode). */
    JsonNode settledAudit(long voucherId) {
        return api.awaitNoPendingOrders(voucherId, Duration.ofSeconds(10));
    }

    @Autowired
    RedissonClient redisson;

    @Test
    void placesAnOrderAndTheShopperCanReadItBack() {
        long voucherId = api.createVoucher(5);
        String token = api.mintShoppers(1).get(0);

        Response placed = api.seckill(voucherId, token).expectStatus(accepted());
        assertThat(placed.instanceId()).isEqualTo("test-instance");
        String orderId = placed.json().path("orderId").asString();

        JsonNode order = api.get("/orders/" + orderId, "Authorization", "Bearer " + token).expectStatus(200).json();
        assertThat(order.path("orderId").asString()).isEqualTo(orderId);
        assertThat(order.path("voucherId").asLong()).isEqualTo(voucherId);
        assertThat(order.path("status").asString()).isIn(accepted() == 201 ? List.of("AWAITING_PAYMENT") : List.of("PENDING", "AWAITING_PAYMENT"));

        JsonNode audit = settledAudit(voucherId);
        assertThat(api.get("/orders/" + orderId, "Authorization", "Bearer " + token).expectStatus(200).json()
                .path("status").asString()).isEqualTo("AWAITING_PAYMENT");
        assertThat(audit.path("orders").asLong()).isEqualTo(1);
        assertThat(audit.path("dbStock").asInt()).isEqualTo(4);
        assertThat(audit.path("redisStock").asLong()).isEqualTo(4);
        assertThat(audit.path("consistent").asBoolean()).isTrue();
    }

    @Test
    void anotherShoppersOrderIsNotFound() {
        long voucherId = api.createVoucher(5);
        List<String> tokens = api.mintShoppers(2);
        String orderId = api.seckill(voucherId, tokens.get(0)).expectStatus(accepted()).json().path("orderId").asString();

        Response response = api.get("/orders/" + orderId, "Authorization", "Bearer " + tokens.get(1));

        response.expectProblem(404, "order-not-found");
    }

    @Test
    void refusalsWrittenByTheSeckillEndpointLookLikeEveryOtherProblem() {
        long unknown = 987_654_321L;
        JsonNode fast = api.seckill(unknown, api.mintShoppers(1).get(0)).expectProblem(404, "voucher-not-found").json();
        JsonNode viaAdvice = api.get("/vouchers/" + unknown).expectProblem(404, "voucher-not-found").json();

        assertThat(fast.path("instance").asString()).isEqualTo("/seckill/" + unknown);
        ((tools.jackson.databind.node.ObjectNode) fast).remove("instance");
        ((tools.jackson.databind.node.ObjectNode) viaAdvice).remove("instance");
        assertThat(fast).isEqualTo(viaAdvice);
    }

    @Test
    void unknownVoucher() {
        api.seckill(987_654_321L, api.mintShoppers(1).get(0)).expectProblem(404, "voucher-not-found");
    }

    @Test
    void saleNotStarted() {
        Instant now = Instant.now();
        long voucherId = api.createVoucher(5, now.plusSeconds(3600), now.plusSeconds(7200));

        api.seckill(voucherId, api.mintShoppers(1).get(0)).expectProblem(409, "sale-not-started");
        assertThat(api.audit(voucherId).path("dbStock").asInt()).isEqualTo(5);
    }

    @Test
    void saleEnded() {
        Instant now = Instant.now();
        long voucherId = api.createVoucher(5, now.minusSeconds(7200), now.minusSeconds(3600));

        api.seckill(voucherId, api.mintShoppers(1).get(0)).expectProblem(409, "sale-ended");
    }

    @Test
    void soldOut() {
        long voucherId = api.createVoucher(1);
        List<String> tokens = api.mintShoppers(2);
        api.seckill(voucherId, tokens.get(0)).expectStatus(accepted());

        api.seckill(voucherId, tokens.get(1)).expectProblem(409, "sold-out");
        JsonNode audit = settledAudit(voucherId);
        assertThat(audit.path("orders").asLong()).isEqualTo(1);
        assertThat(audit.path("consistent").asBoolean()).isTrue();
    }

    @Test
    void alreadyOrderedGivesTheCachedUnitBack() {
        long voucherId = api.createVoucher(5);
        String token = api.mintShoppers(1).get(0);
        api.seckill(voucherId, token).expectStatus(accepted());

        api.seckill(voucherId, token).expectProblem(409, "already-ordered");
        JsonNode audit = settledAudit(voucherId);
        assertThat(audit.path("orders").asLong()).isEqualTo(1);
        assertThat(audit.path("redisStock").asLong()).isEqualTo(4);
        assertThat(audit.path("consistent").asBoolean()).isTrue();
    }

    @Test
    void aCounterLostByRedisIsRebuiltFromMySqlWithItsBuyers() {
        long voucherId = api.createVoucher(5);
        List<String> tokens = api.mintShoppers(2);
        api.seckill(voucherId, tokens.get(0)).expectStatus(accepted());
        settledAudit(voucherId);
        redisson.getKeys().delete(VoucherKeys.stock(voucherId), VoucherKeys.buyers(voucherId));

        api.seckill(voucherId, tokens.get(0)).expectProblem(409, "already-ordered");
        String firstShopper = Long.toString(Tokens.shopperId(tokens.get(0)));
        assertThat(redisson.getSet(VoucherKeys.buyers(voucherId), org.redisson.client.codec.StringCodec.INSTANCE)
                .contains(firstShopper)).as("the buyer set was rebuilt from MySQL").isTrue();
        api.seckill(voucherId, tokens.get(1)).expectStatus(accepted());
        JsonNode audit = settledAudit(voucherId);
        assertThat(audit.path("orders").asLong()).isEqualTo(2);
        assertThat(audit.path("redisStock").asLong()).isEqualTo(3);
        assertThat(audit.path("consistent").asBoolean()).as(audit.toString()).isTrue();
    }

    @Test
    void aBuyerAskingAgainAfterTheSellOutHearsSoldOutAndAnIdempotentRetryGetsTheOrderBack() {
        long voucherId = api.createVoucher(1);
        List<String> tokens = api.mintShoppers(2);
        String orderId = api.seckill(voucherId, tokens.get(0)).expectStatus(accepted()).json().path("orderId").asString();

        // At once, before anyone was refused (no sold-out flag yet), and again after a refusal raised it.
        api.seckill(voucherId, tokens.get(0)).expectProblem(409, "sold-out");
        api.seckill(voucherId, tokens.get(1)).expectProblem(409, "sold-out");
        api.seckill(voucherId, tokens.get(0)).expectProblem(409, "sold-out");
        Response replayed = api.post("/seckill/" + voucherId, null, "Authorization", "Bearer " + tokens.get(0),
                "Idempotency-Key", "retry-1").expectStatus(accepted());
        assertThat(replayed.json().path("orderId").asString()).isEqualTo(orderId);
        assertThat(settledAudit(voucherId).path("consistent").asBoolean()).isTrue();
    }
}
