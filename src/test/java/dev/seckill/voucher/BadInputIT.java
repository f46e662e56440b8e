package dev.seckill.voucher;

import java.time.Instant;

import dev.seckill.support.Api.Response;
import dev.seckill.support.IntegrationTest;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/** Each bad input answers a 4xx problem with its code, and nothing in MySQL or Redis changes. */
class BadInputIT extends IntegrationTest {

    static final String VALID_TIMES = "\"beginTime\":\"2026-01-01T00:00:00Z\",\"endTime\":\"2030-01-01T00:00:00Z\"";

    @Autowired
    JdbcTemplate db;

    long voucherId;
    String token;
    Snapshot before;

    @BeforeEach
    void voucherAndShopper() {
        voucherId = api.createVoucher(10);
        token = api.mintShoppers(1).get(0);
        before = snapshot();
    }

    @ParameterizedTest
    @ValueSource(strings = {"abc", "1.5", "99999999999999999999999", "%20"})
    void nonNumericVoucherId(String id) {
        api.post("/seckill/" + id, null, "Authorization", "Bearer " + token).expectProblem(400, "invalid-parameter");
    }

    @ParameterizedTest
    @ValueSource(strings = {"-1", "0"})
    void negativeOrZeroVoucherId(String id) {
        api.post("/seckill/" + id, null, "Authorization", "Bearer " + token).expectProblem(400, "validation-failed");
    }

    @Test
    void adminCallWithoutCredentials() {
        api.post("/admin/vouchers", validVoucher()).expectProblem(401, "admin-credentials-missing");
        api.get("/admin/vouchers/" + voucherId + "/audit").expectProblem(401, "admin-credentials-missing");
        api.post("/admin/shoppers?count=5", null).expectProblem(401, "admin-credentials-missing");
    }

    @Test
    void adminCallWithWrongCredentials() {
        String wrong = "Basic " + java.util.Base64.getEncoder().encodeToString("test-admin:guess".getBytes());
        api.post("/admin/vouchers", validVoucher(), "Authorization", wrong).expectProblem(401, "admin-credentials-invalid");
        api.put("/admin/vouchers/" + voucherId + "/stock", "{\"stock\":0}", "Authorization", wrong)
                .expectProblem(401, "admin-credentials-invalid");
        api.post("/admin/vouchers", validVoucher(), "Authorization", "Basic !!!")
                .expectProblem(401, "admin-credentials-invalid");
        api.post("/admin/vouchers", validVoucher(), "Authorization", "Bearer " + token).expectProblem(401, "admin-credentials-missing");
    }

    @Test
    void pingIsPublicAndTiny() {
        assertThat(api.get("/ping").expectStatus(200).body()).isEqualTo("pong");
    }

    @Test
    void actuatorHealthIsPublicAndTheRestIsNot() {
        assertThat(api.get("/actuator/health").expectStatus(200).json().path("status").asString()).isEqualTo("UP");
        api.get("/actuator/metrics").expectProblem(401, "admin-credentials-missing");
        assertThat(api.asAdmin("GET", "/actuator/metrics", null).status()).isEqualTo(200);
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "{\"title\":\"Neg\",\"price\":1.00,\"stock\":-1," + VALID_TIMES + "}",
            "{\"title\":\"Window\",\"price\":1.00,\"stock\":1,\"beginTime\":\"2030-01-01T00:00:00Z\",\"endTime\":\"2026-01-01T00:00:00Z\"}",
            "{\"title\":\"Same\",\"price\":1.00,\"stock\":1,\"beginTime\":\"2030-01-01T00:00:00Z\",\"endTime\":\"2030-01-01T00:00:00Z\"}",
            "{\"price\":1.00,\"stock\":1," + VALID_TIMES + "}",
            "{\"title\":\"   \",\"price\":1.00,\"stock\":1," + VALID_TIMES + "}",
            "{\"title\":\"Absurd\",\"price\":1e15,\"stock\":1," + VALID_TIMES + "}",
            "{\"title\":\"Negative price\",\"price\":-0.01,\"stock\":1," + VALID_TIMES + "}",
            "{\"title\":\"Fractions\",\"price\":1.001,\"stock\":1," + VALID_TIMES + "}",
            "{\"title\":\"Huge stock\",\"price\":1.00,\"stock\":2000000000," + VALID_TIMES + "}",
            "{\"title\":\"No times\",\"price\":1.00,\"stock\":1}",
            "{\"title\":\"No stock\",\"price\":1.00," + VALID_TIMES + "}",
            "{\"title\":\"Too quick to pay\",\"price\":1.00,\"stock\":1," + VALID_TIMES + ",\"paymentWindow\":\"PT5S\"}",
            "{\"title\":\"Too long to pay\",\"price\":1.00,\"stock\":1," + VALID_TIMES + ",\"paymentWindow\":\"PT25H\"}",
            "{\"title\":\"Negative window\",\"price\":1.00,\"stock\":1," + VALID_TIMES + ",\"paymentWindow\":\"-PT1M\"}"})
    void invalidVoucher(String body) {
        api.asAdmin("POST", "/admin/vouchers", body).expectProblem(400, "validation-failed");
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "{\"title\":",
            "not json",
            "[]",
            "{\"title\":\"Typo\",\"prise\":1.00,\"stock\":1," + VALID_TIMES + "}",
            "{\"title\":\"Types\",\"price\":\"cheap\",\"stock\":1," + VALID_TIMES + "}",
            "{\"title\":\"Stock overflow\",\"price\":1.00,\"stock\":99999999999," + VALID_TIMES + "}",
            "{\"title\":\"Bad time\",\"price\":1.00,\"stock\":1,\"beginTime\":\"yesterday\",\"endTime\":\"2030-01-01T00:00:00Z\"}",
            "{\"title\":\"No offset\",\"price\":1.00,\"stock\":1,\"beginTime\":\"2026-01-01T00:00:00\",\"endTime\":\"2030-01-01T00:00:00Z\"}",
            "{\"title\":\"Window in words\",\"price\":1.00,\"stock\":1," + VALID_TIMES + ",\"paymentWindow\":\"ten minutes\"}"})
    void malformedVoucherBody(String body) {
        api.asAdmin("POST", "/admin/vouchers", body).expectProblem(400, "malformed-body");
    }

    @Test
    void emptyBody() {
        api.asAdmin("POST", "/admin/vouchers", "").expectProblem(400, "malformed-body");
    }

    @Test
    void oversizedBody() {
        String huge = "{\"title\":\"" + "x".repeat(20_000) + "\",\"price\":1.00,\"stock\":1," + VALID_TIMES + "}";
        api.asAdmin("POST", "/admin/vouchers", huge).expectProblem(413, "body-too-large");
    }

    @ParameterizedTest
    @ValueSource(strings = {"{\"stock\":-1}", "{\"stock\":-1,\"deleteOrders\":true}", "{}", "{\"stock\":null}",
            "{\"stock\":20000000}"})
    void negativeOrMissingStockReset(String body) {
        api.asAdmin("PUT", "/admin/vouchers/" + voucherId + "/stock", body).expectProblem(400, "validation-failed");
    }

    @Test
    void malformedStockReset() {
        api.asAdmin("PUT", "/admin/vouchers/" + voucherId + "/stock", "{\"stock\":\"ten\"}").expectProblem(400, "malformed-body");
        api.asAdmin("PUT", "/admin/vouchers/abc/stock", "{\"stock\":1}").expectProblem(400, "invalid-parameter");
        api.asAdmin("PUT", "/admin/vouchers/987654321/stock", "{\"stock\":1}").expectProblem(404, "voucher-not-found");
    }

    @ParameterizedTest
    @ValueSource(strings = {"0", "-3", "10001", "many"})
    void badShopperCount(String count) {
        Response response = api.asAdmin("POST", "/admin/shoppers?count=" + count, null);
        assertThat(response.status()).isEqualTo(400);
        assertThat(response.code()).isIn("validation-failed", "invalid-parameter");
    }

    @Test
    void wrongMethodAndUnknownPath() {
        api.get("/seckill/" + voucherId, "Authorization", "Bearer " + token).expectProblem(405, "method-not-allowed");
        api.get("/no/such/page").expectProblem(404, "not-found");
    }

    @Test
    void wrongContentType() {
        Response response = api.asAdmin("POST", "/admin/vouchers", null);
        assertThat(response.status()).isBetween(400, 415);
        assertThat(response.code()).isNotNull();
    }

    @org.junit.jupiter.api.AfterEach
    void nothingChanged() {
        assertThat(snapshot()).isEqualTo(before);
    }

    private Snapshot snapshot() {
        JsonNode audit = api.audit(voucherId);
        return new Snapshot(
                db.queryForObject("SELECT COUNT(*) FROM voucher", Long.class),
                db.queryForObject("SELECT COUNT(*) FROM shopper", Long.class),
                db.queryForObject("SELECT COUNT(*) FROM voucher_order", Long.class),
                audit.path("dbStock").asInt(), audit.path("initialStock").asInt(), audit.path("redisStock").asLong());
    }

    private static String validVoucher() {
        return "{\"title\":\"Valid\",\"price\":1.00,\"stock\":1,\"beginTime\":\"" + Instant.now() + "\",\"endTime\":\"2030-01-01T00:00:00Z\"}";
    }


    record Snapshot(long vouchers, long shoppers, long orders, int dbStock, int initialStock, long redisStock) {
    }
}
