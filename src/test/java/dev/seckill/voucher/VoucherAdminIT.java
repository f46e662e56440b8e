package dev.seckill.voucher;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;

import dev.seckill.support.IntegrationTest;
import dev.seckill.support.Tokens;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.springframework.test.context.TestPropertySource;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

// Sync: an order is in MySQL when its 201 comes, so a stock reset never waits for pending ones.
@TestPropertySource(properties = "seckill.mode=sync")
class VoucherAdminIT extends IntegrationTest {

    @Test
    void createsAVoucherAndWarmsRedis() {
        JsonNode created = api.asAdmin("POST", "/admin/vouchers", """
                {"title":"  Flash  ","description":"half price","price":4.50,"stock":7,
                 "beginTime":"2026-01-01T08:00:00+08:00","endTime":"2030-01-01T00:00:00Z"}""")
                .expectStatus(201).json();

        long id = created.path("id").asLong();
        assertThat(created.path("title").asString()).isEqualTo("Flash");
        assertThat(created.path("beginTime").asString()).isEqualTo("2026-01-01T00:00:00Z");
        assertThat(created.path("stock").asInt()).isEqualTo(7);
        JsonNode audit = api.audit(id);
        assertThat(audit.path("redisStock").asLong()).isEqualTo(7);
        assertThat(audit.path("consistent").asBoolean()).isTrue();
        assertThat(api.get("/vouchers/" + id).expectStatus(200).json().path("price").decimalValue())
                .isEqualByComparingTo("4.50");
        assertThat(api.get("/vouchers").expectStatus(200).json().findValues("id")).anySatisfy(
                node -> assertThat(node.asLong()).isEqualTo(id));
    }

    @Test
    void theSaleOpensWhenThePagesSayItDoesNotAFractionOfASecondLater() {
        // MariaDB behind Connector/J keeps whole seconds: the instance that created the voucher used to
        // remember the request's .9 s and refuse sale-not-started while every page showed the sale open
        java.time.Instant begin = Instant.now().plusSeconds(2).truncatedTo(ChronoUnit.SECONDS)
                .plusMillis(900);
        JsonNode created = api.asAdmin("POST", "/admin/vouchers", """
                {"title":"Fractional","price":1.00,"stock":1,"beginTime":"%s","endTime":"2030-01-01T00:00:00Z"}"""
                .formatted(begin)).expectStatus(201).json();
        long id = created.path("id").asLong();
        String shown = api.get("/vouchers/" + id).expectStatus(200).json().path("beginTime").asString();
        assertThat(created.path("beginTime").asString()).as("the 201 says what MySQL keeps").isEqualTo(shown);

        java.time.Instant opens = Instant.parse(shown);
        String token = api.mintShoppers(1).get(0);
        Awaitility.await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(20))
                .until(() -> !Instant.now().isBefore(opens.plusMillis(50)));
        api.seckill(id, token).expectStatus(201);
    }

    /**
     * A voucher's own payment window is its orders' window on the sync path (this class runs sync; OrderLifecycleIT
     * the async one); a voucher created without one keeps the instances' window as it was then.
     */
    @Test
    void aVouchersPaymentWindowIsItsOrdersWindow() {
        Instant now = Instant.now();
        JsonNode quick = api.asAdmin("POST", "/admin/vouchers", """
                {"title":"Quick","price":1.00,"stock":2,"beginTime":"%s","endTime":"%s","paymentWindow":"PT45S"}"""
                .formatted(now.minusSeconds(60), now.plusSeconds(3600))).expectStatus(201).json();
        long quickId = quick.path("id").asLong();
        assertThat(quick.path("paymentWindow").asString()).isEqualTo("PT45S");
        assertThat(api.asAdmin("GET", "/admin/vouchers/" + quickId, null).expectStatus(200).json().path("paymentWindow")
                .asString()).isEqualTo("PT45S");
        long usual = api.createVoucher(2);
        assertThat(api.asAdmin("GET", "/admin/vouchers/" + usual, null).json().path("paymentWindow").asString())
                .as("seckill.payment.window, written into the voucher").isEqualTo("PT15M");

        List<String> tokens = api.mintShoppers(2);
        assertThat(windowOfOrder(quickId, tokens.get(0))).isEqualTo(Duration.ofSeconds(45));
        assertThat(windowOfOrder(usual, tokens.get(1))).isEqualTo(Duration.ofMinutes(15));
    }

    private Duration windowOfOrder(long voucherId, String token) {
        String orderId = api.seckill(voucherId, token).expectStatus(201).json().path("orderId").asString();
        JsonNode order = api.get("/orders/" + orderId, "Authorization", "Bearer " + token).expectStatus(200).json();
        assertThat(order.path("status").asString()).isEqualTo("AWAITING_PAYMENT");
        return Duration.between(Instant.parse(order.path("createdAt").asString()), Instant.parse(order.path("payBy").asString()));
    }

    @Test
    void stockResetKeepsOrdersUnlessAsked() {
        long id = api.createVoucher(2);
        List<String> tokens = api.mintShoppers(3);
        api.seckill(id, tokens.get(0)).expectStatus(201);
        api.seckill(id, tokens.get(1)).expectStatus(201);
        api.seckill(id, tokens.get(2)).expectStatus(409);

        JsonNode reset = api.asAdmin("PUT", "/admin/vouchers/" + id + "/stock", "{\"stock\":5}").expectStatus(200).json();
        assertThat(reset.path("stock").asInt()).isEqualTo(5);
        assertThat(reset.path("initialStock").asInt()).isEqualTo(7);
        JsonNode audit = api.audit(id);
        assertThat(audit.path("orders").asLong()).isEqualTo(2);
        assertThat(audit.path("redisStock").asLong()).isEqualTo(5);
        assertThat(audit.path("consistent").asBoolean()).isTrue();
        api.seckill(id, tokens.get(2)).expectStatus(201);
        api.seckill(id, tokens.get(0)).expectStatus(409);

        api.asAdmin("PUT", "/admin/vouchers/" + id + "/stock", "{\"stock\":3,\"deleteOrders\":true}").expectStatus(200);
        audit = api.audit(id);
        assertThat(audit.path("orders").asLong()).isZero();
        assertThat(audit.path("initialStock").asInt()).isEqualTo(3);
        assertThat(audit.path("consistent").asBoolean()).isTrue();
        api.seckill(id, tokens.get(0)).expectStatus(201);
    }

    @Test
    void mintsShoppersAsJsonOrCsv() {
        JsonNode json = api.asAdmin("POST", "/admin/shoppers?count=3", null).expectStatus(201).json();
        assertThat(json.path("count").asInt()).isEqualTo(3);
        assertThat(json.path("shoppers")).hasSize(3);
        JsonNode first = json.path("shoppers").get(0);
        assertThat(first.path("token").asString()).as("a JWT: header.payload.signature")
                .matches("[\\w-]+\\.[\\w-]+\\.[\\w-]+");
        assertThat(Tokens.shopperId(first.path("token").asString())).isEqualTo(first.path("id").asLong());

        assertThat(api.mintShoppers(4)).hasSize(4).doesNotHaveDuplicates();
    }

    @Test
    void unknownVoucherAudit() {
        assertThat(api.asAdmin("GET", "/admin/vouchers/987654321/audit", null).expectStatus(404).code())
                .isEqualTo("voucher-not-found");
    }
}
