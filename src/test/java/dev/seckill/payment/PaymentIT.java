package dev.seckill.payment;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import dev.seckill.support.Api;
import dev.seckill.support.Api.Response;
import dev.seckill.support.IntegrationTest;
import dev.seckill.support.SandboxProvider;
import dev.seckill.support.TestServers;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Paying, end to end against the real servers and the sandbox provider as it runs by default (its notifications late,
 * duplicated and out of order): the shopper starts a payment, pays or abandons it at the checkout, and the signed
 * notification moves the order; a notification that is not the provider's, or not about our payment, changes nothing.
 */
class PaymentIT extends IntegrationTest {

    private static final WebhookSignature SIGNATURE = new WebhookSignature(TestServers.WEBHOOK_SECRET);

    @Autowired
    JdbcTemplate jdbc;

    /** The sandbox provider's own process, where the checkout page is. */
    final Api sandbox = new Api(SandboxProvider.PORT);

    @Test
    void theShopperPaysAtTheCheckoutAndTheNotificationMakesTheOrderPaid() {
        Bought bought = buy();
        JsonNode payment = api.post("/orders/" + bought.order() + "/payment", null, auth(bought.token()))
                .expectStatus(201).json();
        assertThat(payment.path("amountCents").asLong()).isEqualTo(990);
        assertThat(payment.path("checkoutUrl").asString()).startsWith("/sandbox/checkout/pay_");
        // asked again (a reload): the same payment, not a second one
        assertThat(api.post("/orders/" + bought.order() + "/payment", null, auth(bought.token())).expectStatus(201)
                .json().path("paymentRef").asString()).isEqualTo(payment.path("paymentRef").asString());

        sandbox.postForm(payment.path("checkoutUrl").asString(), "action=pay").expectStatus(200);

        await().atMost(Duration.ofSeconds(10)).until(() -> status(bought), "PAID"::equals);
        api.post("/orders/" + bought.order() + "/cancel", null, auth(bought.token())).expectProblem(409, "order-paid");
        api.post("/orders/" + bought.order() + "/payment", null, auth(bought.token())).expectProblem(409, "order-paid");
        JsonNode audit = api.audit(bought.voucherId());
        assertThat(audit.path("lifecycle").path("paid").asLong()).isEqualTo(1);
        assertThat(audit.path("consistent").asBoolean()).as(audit.toString()).isTrue();
    }

    @Test
    void anAbandonedCheckoutLeavesTheOrderAwaitingAndTheNextStartOpensAnotherPayment() {
        Bought bought = buy();
        JsonNode first = api.post("/orders/" + bought.order() + "/payment", null, auth(bought.token())).json();
        sandbox.postForm(first.path("checkoutUrl").asString(), "action=abandon").expectStatus(200);

        await().atMost(Duration.ofSeconds(10)).until(() -> api.post("/orders/" + bought.order() + "/payment", null,
                auth(bought.token())).json().path("paymentRef").asString(), ref -> !ref.equals(first.path("paymentRef").asString()));
        assertThat(status(bought)).isEqualTo("AWAITING_PAYMENT");
    }

    /**
     * A provider whose close did not take (its close is eventually consistent, or it lost our call): the shopper pays
     * after the order expired and its unit went back on sale. The money goes back; the unit is not sold twice.
     */
    @Test
    void aPaymentThatSucceedsAfterTheOrderExpiredIsRefundedAndTheUnitIsNotSoldTwice() {
        Bought bought = buy();
        JsonNode payment = api.post("/orders/" + bought.order() + "/payment", null, auth(bought.token())).json();
        jdbc.update("UPDATE voucher_order SET pay_by = TIMESTAMPADD(SECOND, -1, UTC_TIMESTAMP(3)) WHERE id = ?",
                bought.order());
        await().atMost(Duration.ofSeconds(10)).until(() -> status(bought), "EXPIRED"::equals);
        // the provider forgets our close
        jdbc.update("UPDATE sandbox_payment SET status = 'OPEN' WHERE ref = ?", payment.path("paymentRef").asString());

        sandbox.postForm(payment.path("checkoutUrl").asString(), "action=pay").expectStatus(200);

        await().atMost(Duration.ofSeconds(15)).until(() -> status(bought), "REFUNDED"::equals);
        assertThat(jdbc.queryForObject("SELECT status FROM sandbox_payment WHERE ref = ?", String.class,
                payment.path("paymentRef").asString())).isEqualTo("REFUNDED");
        JsonNode audit = api.audit(bought.voucherId());
        assertThat(audit.path("lifecycle").path("refunded").asLong()).isEqualTo(1);
        assertThat(audit.path("lifecycle").path("paid").asLong()).isZero();
        assertThat(audit.path("dbStock").asLong()).isEqualTo(1);
        assertThat(audit.path("consistent").asBoolean()).as(audit.toString()).isTrue();
    }

    @Test
    void aNotificationThatIsNotTheProvidersOrNotAboutOurPaymentIsRefusedAndChangesNothing() {
        Bought bought = buy();
        JsonNode payment = api.post("/orders/" + bought.order() + "/payment", null, auth(bought.token())).json();
        String ref = payment.path("paymentRef").asString();
        String paid = succeeded("evt_refused_" + System.nanoTime(), ref, bought.order(), 990);

        webhook(paid, "t=" + Instant.now().getEpochSecond() + ",v1=" + "00".repeat(32))
                .expectProblem(400, "webhook-signature-invalid");
        webhook(paid, null).expectProblem(400, "webhook-signature-invalid");
        webhook(paid, SIGNATURE.sign(paid, Instant.now().minus(Duration.ofMinutes(6))))
                .expectProblem(400, "webhook-signature-invalid");
        webhook(paid, new WebhookSignature("another-secret-entirely-0123").sign(paid, Instant.now()))
                .expectProblem(400, "webhook-signature-invalid");
        String unknown = succeeded("evt_unknown_" + System.nanoTime(), "pay_nobody", bought.order(), 990);
        webhook(unknown, SIGNATURE.sign(unknown, Instant.now())).expectProblem(404, "payment-unknown");
        String cheap = succeeded("evt_cheap_" + System.nanoTime(), ref, bought.order(), 1);
        webhook(cheap, SIGNATURE.sign(cheap, Instant.now())).expectProblem(422, "payment-amount-mismatch");
        webhook("{not json", SIGNATURE.sign("{not json", Instant.now())).expectProblem(400, "malformed-body");

        assertThat(status(bought)).isEqualTo("AWAITING_PAYMENT");
        assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM payment_event WHERE payment_id = ?", Long.class, ref)).isZero();
        assertThat(jdbc.queryForObject("SELECT status FROM payment WHERE id = ?", String.class, ref)).isEqualTo("OPEN");
    }

    /**
     * A signed {@code payment.succeeded} for a payment the provider closed when the shopper cancelled: the provider,
     * asked, says it was never paid, so there is nothing to refund and nothing to retry. Answered 200 once, and the
     * same event again is a duplicate; the order, the payment and the provider's books are as they were.
     */
    @Test
    void aSucceededNotificationForAPaymentClosedWhenTheOrderWasCancelledIsAnsweredNotPaid() {
        Bought bought = buy();
        String ref = api.post("/orders/" + bought.order() + "/payment", null, auth(bought.token())).expectStatus(201)
                .json().path("paymentRef").asString();
        api.post("/orders/" + bought.order() + "/cancel", null, auth(bought.token())).expectStatus(200);

        aSucceededNotificationTheProviderDisagreesWithChangesNothing(bought, ref, "CANCELLED");
    }

    @Test
    void aSucceededNotificationForAPaymentClosedWhenTheOrderExpiredIsAnsweredNotPaid() {
        Bought bought = buy();
        String ref = api.post("/orders/" + bought.order() + "/payment", null, auth(bought.token())).expectStatus(201)
                .json().path("paymentRef").asString();
        jdbc.update("UPDATE voucher_order SET pay_by = TIMESTAMPADD(SECOND, -1, UTC_TIMESTAMP(3)) WHERE id = ?",
                bought.order());
        await().atMost(Duration.ofSeconds(10)).until(() -> status(bought), "EXPIRED"::equals);

        aSucceededNotificationTheProviderDisagreesWithChangesNothing(bought, ref, "EXPIRED");
    }

    private void aSucceededNotificationTheProviderDisagreesWithChangesNothing(Bought bought, String ref, String ended) {
        assertThat(jdbc.queryForObject("SELECT status FROM sandbox_payment WHERE ref = ?", String.class, ref))
                .isEqualTo("CLOSED");
        String paid = succeeded("evt_closed_" + System.nanoTime(), ref, bought.order(), 990);

        assertThat(webhook(paid, SIGNATURE.sign(paid, Instant.now())).expectStatus(200).json().path("outcome").asString())
                .isEqualTo("NOT_PAID");
        assertThat(webhook(paid, SIGNATURE.sign(paid, Instant.now())).expectStatus(200).json().path("outcome").asString())
                .isEqualTo("DUPLICATE");

        assertThat(status(bought)).isEqualTo(ended);
        assertThat(jdbc.queryForObject("SELECT status FROM payment WHERE id = ?", String.class, ref)).isEqualTo("CLOSED");
        assertThat(jdbc.queryForObject("SELECT status FROM sandbox_payment WHERE ref = ?", String.class, ref))
                .isEqualTo("CLOSED");
        assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM sandbox_delivery WHERE payment_ref = ? AND type = ?",
                Long.class, ref, "refund.succeeded")).isZero();
        JsonNode audit = api.audit(bought.voucherId());
        assertThat(audit.path("dbStock").asLong()).isEqualTo(1);
        assertThat(audit.path("consistent").asBoolean()).as(audit.toString()).isTrue();
    }

    /**
     * A signed {@code payment.succeeded} for a payment the provider still has open (unpaid): the order is not made paid
     * on the notification's word. Refused with a problem and nothing recorded, so that its next delivery asks the
     * provider again, and once the provider has it paid, that delivery makes the order paid.
     */
    @Test
    void aSucceededNotificationForAPaymentStillOpenAtTheProviderIsRefusedUntilTheProviderHasItPaid() {
        Bought bought = buy();
        String ref = api.post("/orders/" + bought.order() + "/payment", null, auth(bought.token())).expectStatus(201)
                .json().path("paymentRef").asString();
        String paid = succeeded("evt_early_" + System.nanoTime(), ref, bought.order(), 990);

        webhook(paid, SIGNATURE.sign(paid, Instant.now())).expectProblem(409, "payment-not-settled");
        assertThat(status(bought)).isEqualTo("AWAITING_PAYMENT");
        assertThat(jdbc.queryForObject("SELECT status FROM payment WHERE id = ?", String.class, ref)).isEqualTo("OPEN");
        assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM payment_event WHERE payment_id = ?", Long.class, ref)).isZero();

        // Paid at the provider, whose own notifications are left out: the same event delivered again now counts.
        jdbc.update("UPDATE sandbox_payment SET status = 'PAID' WHERE ref = ?", ref);
        assertThat(webhook(paid, SIGNATURE.sign(paid, Instant.now())).expectStatus(200).json().path("outcome").asString())
                .isEqualTo("PAID");
        assertThat(status(bought)).isEqualTo("PAID");
    }

    /**
     * Many tabs, or a script, start paying one order at once: one payment is opened with the provider, and every
     * request is answered with it (a second one could be paid too, and the shopper charged twice).
     */
    @Test
    void twentyConcurrentStartsOfOneOrderOpenOnePaymentAndAnswerItToAll() throws Exception {
        Bought bought = buy();
        int requests = 20;
        ExecutorService pool = Executors.newFixedThreadPool(requests);
        // A connection each, opened beforehand: the requests then reach the server together, not one handshake apart.
        CountDownLatch warm = new CountDownLatch(1);
        List<Future<Response>> pings = new ArrayList<>();
        for (int i = 0; i < requests; i++) {
            pings.add(pool.submit(() -> {
                warm.await();
                return api.get("/ping");
            }));
        }
        warm.countDown();
        for (Future<Response> ping : pings) {
            ping.get().expectStatus(200);
        }
        CountDownLatch start = new CountDownLatch(1);
        List<Future<Response>> starts = new ArrayList<>();
        for (int i = 0; i < requests; i++) {
            starts.add(pool.submit(() -> {
                start.await();
                return api.post("/orders/" + bought.order() + "/payment", null, auth(bought.token()));
            }));
        }
        start.countDown();
        List<String> refs = new ArrayList<>();
        for (Future<Response> answer : starts) {
            refs.add(answer.get().expectStatus(201).json().path("paymentRef").asString());
        }
        pool.shutdown();

        assertThat(refs).hasSize(requests).doesNotContainNull().containsOnly(refs.get(0));
        assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM sandbox_payment WHERE order_id = ?", Long.class,
                Long.parseLong(bought.order()))).as("payments opened at the provider").isEqualTo(1);
        assertThat(jdbc.queryForList("SELECT id FROM payment WHERE order_id = ?", String.class,
                Long.parseLong(bought.order()))).containsExactly(refs.get(0));
    }

    /** One event delivered by several deliveries at once, and an older event after a newer one: handled once, never backwards. */
    @Test
    void duplicateAndOutOfOrderNotificationsLeaveTheSameResult() throws Exception {
        Bought bought = buy();
        String ref = api.post("/orders/" + bought.order() + "/payment", null, auth(bought.token())).json()
                .path("paymentRef").asString();
        // Paid at the provider, whose own notifications are left out: these deliveries are the only ones.
        jdbc.update("UPDATE sandbox_payment SET status = 'PAID' WHERE ref = ?", ref);
        String paid = succeeded("evt_dup_" + System.nanoTime(), ref, bought.order(), 990);
        ExecutorService pool = Executors.newFixedThreadPool(6);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<Response>> deliveries = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            deliveries.add(pool.submit(() -> {
                start.await();
                return webhook(paid, SIGNATURE.sign(paid, Instant.now()));
            }));
        }
        start.countDown();
        List<String> outcomes = new ArrayList<>();
        for (Future<Response> delivery : deliveries) {
            outcomes.add(delivery.get().expectStatus(200).json().path("outcome").asString());
        }
        pool.shutdown();
        assertThat(outcomes).containsOnlyOnce("PAID").containsOnly("PAID", "DUPLICATE");

        String processing = notification("evt_late_" + System.nanoTime(), "payment.processing", ref, bought.order(), 990);
        assertThat(webhook(processing, SIGNATURE.sign(processing, Instant.now())).expectStatus(200).json()
                .path("outcome").asString()).isEqualTo("IGNORED");
        String canceled = notification("evt_canceled_" + System.nanoTime(), "payment.canceled", ref, bought.order(), 990);
        webhook(canceled, SIGNATURE.sign(canceled, Instant.now())).expectStatus(200);
        assertThat(status(bought)).isEqualTo("PAID");
        assertThat(jdbc.queryForObject("SELECT status FROM payment WHERE id = ?", String.class, ref)).isEqualTo("SUCCEEDED");
    }

    private record Bought(long voucherId, String token, String order) {
    }

    private Bought buy() {
        long voucherId = api.createVoucher(1);
        String token = api.mintShoppers(1).get(0);
        String order = api.seckill(voucherId, token).expectStatus(202).json().path("orderId").asString();
        api.awaitNoPendingOrders(voucherId, Duration.ofSeconds(10));
        return new Bought(voucherId, token, order);
    }

    private String status(Bought bought) {
        return api.get("/orders/" + bought.order(), auth(bought.token())).json().path("status").asString();
    }

    private Response webhook(String body, String signature) {
        return signature == null ? api.post("/payments/webhook", body)
                : api.post("/payments/webhook", body, WebhookSignature.HEADER, signature);
    }

    private static String succeeded(String eventId, String ref, String orderId, long cents) {
        return notification(eventId, "payment.succeeded", ref, orderId, cents);
    }

    private static String notification(String eventId, String type, String ref, String orderId, long cents) {
        return """
                {"id":"%s","type":"%s","created":%d,"payment":{"ref":"%s","orderId":"%s","amountCents":%d,"status":"PAID"}}"""
                .formatted(eventId, type, Instant.now().getEpochSecond(), ref, orderId, cents);
    }

    private static String[] auth(String token) {
        return new String[] {"Authorization", "Bearer " + token};
    }
}
