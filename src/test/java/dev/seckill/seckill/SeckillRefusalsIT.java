package dev.seckill.seckill;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import java.util.List;


import dev.seckill.lock.SeckillLocks;
import dev.seckill.stock.VoucherKeys;
import dev.seckill.support.Api.Response;
import dev.seckill.support.IntegrationTest;
import dev.seckill.support.ShopperLockHolder;
import dev.seckill.support.TestServers;
import dev.seckill.support.Tokens;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.PlainJWT;
import org.junit.jupiter.api.Test;
import org.redisson.api.RedissonClient;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/** Every answer of POST /seckill/{id} and GET /orders/{id}, each through a real instance. */
class SeckillRefusalsIT extends IntegrationTest {

    @Autowired
    SeckillLocks locks;

    @Autowired
    RedissonClient redisson;

    @Test
    void placesAnOrderAndTheShopperCanReadItBack() {
        long voucherId = api.createVoucher(5);
        String token = api.mintShoppers(1).get(0);

        Response placed = api.seckill(voucherId, token).expectStatus(201);
        assertThat(placed.instanceId()).isEqualTo("test-instance");
        String orderId = placed.json().path("orderId").asString();

        JsonNode order = api.get("/orders/" + orderId, "Authorization", "Bearer " + token).expectStatus(200).json();
        assertThat(order.path("orderId").asString()).isEqualTo(orderId);
        assertThat(order.path("voucherId").asLong()).isEqualTo(voucherId);
        assertThat(order.path("status").asString()).isEqualTo("CONFIRMED");

        JsonNode audit = api.audit(voucherId);
        assertThat(audit.path("orders").asLong()).isEqualTo(1);
        assertThat(audit.path("dbStock").asInt()).isEqualTo(4);
        assertThat(audit.path("redisStock").asLong()).isEqualTo(4);
        assertThat(audit.path("consistent").asBoolean()).isTrue();
    }

    @Test
    void anotherShoppersOrderIsNotFound() {
        long voucherId = api.createVoucher(5);
        List<String> tokens = api.mintShoppers(2);
        String orderId = api.seckill(voucherId, tokens.get(0)).expectStatus(201).json().path("orderId").asString();

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
        api.seckill(voucherId, tokens.get(0)).expectStatus(201);

        api.seckill(voucherId, tokens.get(1)).expectProblem(409, "sold-out");
        JsonNode audit = api.audit(voucherId);
        assertThat(audit.path("orders").asLong()).isEqualTo(1);
        assertThat(audit.path("consistent").asBoolean()).isTrue();
    }

    @Test
    void alreadyOrderedGivesTheCachedUnitBack() {
        long voucherId = api.createVoucher(5);
        String token = api.mintShoppers(1).get(0);
        api.seckill(voucherId, token).expectStatus(201);

        api.seckill(voucherId, token).expectProblem(409, "already-ordered");
        JsonNode audit = api.audit(voucherId);
        assertThat(audit.path("orders").asLong()).isEqualTo(1);
        assertThat(audit.path("redisStock").asLong()).isEqualTo(4);
        assertThat(audit.path("consistent").asBoolean()).isTrue();
    }

    @Test
    void requestInFlightWhileTheSameShopperHoldsTheLock() throws Exception {
        long voucherId = api.createVoucher(5);
        String token = api.mintShoppers(1).get(0);
        long shopperId = Tokens.shopperId(token);
        try (ShopperLockHolder held = new ShopperLockHolder(locks, voucherId, shopperId)) {
            api.seckill(voucherId, token).expectProblem(429, "request-in-flight");
        }
        assertThat(api.audit(voucherId).path("redisStock").asLong()).isEqualTo(5);
        api.seckill(voucherId, token).expectStatus(201);
    }

    @Test
    void aCounterLostByRedisIsRebuiltFromMySqlWithItsBuyers() {
        long voucherId = api.createVoucher(5);
        List<String> tokens = api.mintShoppers(2);
        api.seckill(voucherId, tokens.get(0)).expectStatus(201);
        redisson.getKeys().delete(VoucherKeys.stock(voucherId), VoucherKeys.buyers(voucherId));

        api.seckill(voucherId, tokens.get(0)).expectProblem(409, "already-ordered");
        String firstShopper = Long.toString(Tokens.shopperId(tokens.get(0)));
        assertThat(redisson.getSet(VoucherKeys.buyers(voucherId), org.redisson.client.codec.StringCodec.INSTANCE)
                .contains(firstShopper)).as("the buyer set was rebuilt from MySQL").isTrue();
        api.seckill(voucherId, tokens.get(1)).expectStatus(201);
        JsonNode audit = api.audit(voucherId);
        assertThat(audit.path("orders").asLong()).isEqualTo(2);
        assertThat(audit.path("redisStock").asLong()).isEqualTo(3);
        assertThat(audit.path("consistent").asBoolean()).as(audit.toString()).isTrue();
    }

    @Test
    void missingToken() {
        long voucherId = api.createVoucher(5);
        api.post("/seckill/" + voucherId, null).expectProblem(401, "token-missing");
    }

    @Test
    void malformedTokens() {
        long voucherId = api.createVoucher(5);
        for (String header : List.of("Bearer ", "Bearer not-a-token", "Bearer 1.2", "Bearer 1.2.3.%%%",
                "Basic dXNlcjpwYXNz", "Bearer " + "x".repeat(500))) {
            Response response = api.post("/seckill/" + voucherId, null, "Authorization", header);
            assertThat(response.status()).as(header).isEqualTo(401);
            assertThat(response.code()).as(header).isIn("token-invalid", "token-missing");
        }
        assertThat(api.audit(voucherId).path("dbStock").asInt()).isEqualTo(5);
    }

    @Test
    void forgedToken() {
        long voucherId = api.createVoucher(5);
        Instant future = Instant.now().plusSeconds(3600);
        String foreignSecret = "some-other-secret-of-sufficient-length-0123";

        api.seckill(voucherId, Tokens.signed(foreignSecret, "42", "seckill", future)).expectProblem(401, "token-invalid");

        String real = api.mintShoppers(1).get(0);
        String[] parts = real.split("\\.");
        String otherShopper = parts[0] + "." + Base64.getUrlEncoder().withoutPadding().encodeToString(
                ("{\"iss\":\"seckill\",\"sub\":\"" + (Tokens.shopperId(real) + 1) + "\",\"exp\":" + future.getEpochSecond() + "}")
                        .getBytes(StandardCharsets.UTF_8)) + "." + parts[2];
        api.seckill(voucherId, otherShopper).expectProblem(401, "token-invalid");
        api.seckill(voucherId, Tokens.signed(TestServers.TOKEN_SECRET, "42", "someone-else", future))
                .expectProblem(401, "token-invalid");
        api.seckill(voucherId, Tokens.sign(TestServers.TOKEN_SECRET, new JWSHeader(JWSAlgorithm.HS384),
                new JWTClaimsSet.Builder().subject("42").issuer("seckill").expirationTime(Date.from(future)).build()))
                .expectProblem(401, "token-invalid");
        String unsigned = new PlainJWT(new JWTClaimsSet.Builder().subject("42").issuer("seckill")
                .expirationTime(Date.from(future)).build()).serialize();
        api.seckill(voucherId, unsigned).expectProblem(401, "token-invalid");
        assertThat(api.audit(voucherId).path("orders").asLong()).isZero();
    }

    @Test
    void aTokenForAShopperIdThatDoesNotParse() {
        long voucherId = api.createVoucher(5);
        Instant future = Instant.now().plusSeconds(3600);
        for (String subject : List.of("abc", "-5", "0", "1.5", "99999999999999999999", "")) {
            api.seckill(voucherId, Tokens.forTestInstances(subject, future)).expectProblem(401, "token-invalid");
        }
        api.seckill(voucherId, Tokens.forTestInstances("42", null)).expectProblem(401, "token-invalid");
        assertThat(api.audit(voucherId).path("orders").asLong()).isZero();
    }

    @Test
    void expiredToken() {
        long voucherId = api.createVoucher(5);
        String expired = Tokens.forTestInstances("42", Instant.now().minusSeconds(1));

        api.seckill(voucherId, expired).expectProblem(401, "token-expired");
        api.get("/orders/1", "Authorization", "Bearer " + expired).expectProblem(401, "token-expired");
    }
}
