package dev.seckill.sale;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import java.util.List;

import dev.seckill.support.Api.Response;
import dev.seckill.support.IntegrationTest;
import dev.seckill.support.TestServers;
import dev.seckill.support.Tokens;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.PlainJWT;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** A shopper's token refused, each through a real instance: the same in either mode (the filter chain decides). */
class ShopperTokenRefusalsIT extends IntegrationTest {

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
