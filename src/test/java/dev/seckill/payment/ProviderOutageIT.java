package dev.seckill.payment;

import java.io.IOException;
import java.time.Duration;

import java.util.Map;

import dev.seckill.support.Api;
import dev.seckill.support.AppProcess;
import dev.seckill.support.Nginx;
import dev.seckill.support.SandboxProvider;
import dev.seckill.support.TcpProxy;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The payment provider is another process: when it cannot be reached, or takes the call and never answers, a shopper
 * starting a payment through Nginx is told 503 {@code payment-unavailable} within the provider's timeout, the order
 * keeps its unit and stays payable, and once the provider is back the same request opens a payment. The packaged
 * jar, the provider reached through a proxy that cuts or swallows the connection.
 */
class ProviderOutageIT {

    static TcpProxy toProvider;
    static AppProcess instance;
    static Nginx nginx;

    @BeforeAll
    static void start() throws Exception {
        SandboxProvider.start();
        toProvider = new TcpProxy("127.0.0.1", SandboxProvider.PORT);
        instance = AppProcess.start("provider-outage", Map.of(
                "seckill.payment.provider-url", "http://127.0.0.1:" + toProvider.port(),
                "seckill.payment.provider-timeout", "2s"));
        nginx = Nginx.start(instance.port(), "");
    }

    @AfterAll
    static void stop() throws Exception {
        if (nginx != null) {
            nginx.close();
        }
        if (instance != null) {
            instance.close();
        }
        if (toProvider != null) {
            toProvider.close();
        }
    }

    @Test
    void aProviderThatRefusesConnectionsIsAnsweredPaymentUnavailableAndTheOrderStaysPayable() throws IOException {
        Api viaNginx = new Api(nginx.port());
        Bought bought = buy(viaNginx);

        toProvider.cut();
        try {
            viaNginx.post("/orders/" + bought.order() + "/payment", null, auth(bought.token()))
                    .expectProblem(503, "payment-unavailable");
            assertThat(status(viaNginx, bought)).isEqualTo("AWAITING_PAYMENT");
        } finally {
            toProvider.restore();
        }
        assertThat(viaNginx.post("/orders/" + bought.order() + "/payment", null, auth(bought.token())).expectStatus(201)
                .json().path("checkoutUrl").asString()).startsWith("/sandbox/checkout/pay_");
    }

    @Test
    void aProviderThatNeverAnswersIsAnsweredPaymentUnavailableWithinItsTimeout() throws IOException {
        Api viaNginx = new Api(nginx.port());
        Bought bought = buy(viaNginx);

        toProvider.blackHole();
        long start = System.nanoTime();
        try {
            viaNginx.post("/orders/" + bought.order() + "/payment", null, auth(bought.token()))
                    .expectProblem(503, "payment-unavailable");
        } finally {
            toProvider.forward();
        }
        Duration took = Duration.ofNanos(System.nanoTime() - start);

        assertThat(took).as("bounded by seckill.payment.provider-timeout (2 s), not by Nginx's").isLessThan(Duration.ofSeconds(8));
        assertThat(status(viaNginx, bought)).isEqualTo("AWAITING_PAYMENT");
        assertThat(viaNginx.audit(bought.voucherId()).path("lifecycle").path("awaitingPayment").asLong()).isEqualTo(1);
    }

    @Test
    void aPaymentOpenedWhoseAnswerWasLostIsTheOneTheRetryGets() throws IOException {
        Api viaNginx = new Api(nginx.port());
        Bought bought = buy(viaNginx);

        toProvider.dropReplies();
        try {
            viaNginx.post("/orders/" + bought.order() + "/payment", null, auth(bought.token()))
                    .expectProblem(503, "payment-unavailable");
        } finally {
            toProvider.forward();
        }
        String opened = SandboxProvider.bean(JdbcTemplate.class).queryForObject(
                "SELECT ref FROM sandbox_payment WHERE order_id = ?", String.class, Long.parseLong(bought.order()));
        String retried = viaNginx.post("/orders/" + bought.order() + "/payment", null, auth(bought.token()))
                .expectStatus(201).json().path("paymentRef").asString();

        assertThat(retried).as("the provider opened it while the answer was lost").isEqualTo(opened);
        assertThat(SandboxProvider.bean(JdbcTemplate.class).queryForObject(
                "SELECT COUNT(*) FROM sandbox_payment WHERE order_id = ?", Long.class, Long.parseLong(bought.order())))
                .as("one payment at the provider, the one the order knows").isEqualTo(1);
    }

    private record Bought(long voucherId, String token, String order) {
    }

    private static Bought buy(Api api) {
        long voucherId = api.createVoucher(1);
        String token = api.mintShoppers(1).get(0);
        String order = api.seckill(voucherId, token).expectStatus(202).json().path("orderId").asString();
        api.awaitNoPendingOrders(voucherId, Duration.ofSeconds(10));
        return new Bought(voucherId, token, order);
    }

    private static String status(Api api, Bought bought) {
        return api.get("/orders/" + bought.order(), auth(bought.token())).json().path("status").asString();
    }

    private static String[] auth(String token) {
        return new String[] {"Authorization", "Bearer " + token};
    }
}
