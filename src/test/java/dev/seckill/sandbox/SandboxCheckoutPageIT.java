package dev.seckill.sandbox;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Instant;
import java.util.concurrent.TimeUnit;

import dev.seckill.payment.PaymentGateway;
import dev.seckill.payment.PaymentGateway.Checkout;
import dev.seckill.payment.PaymentGateway.CheckoutRequest;
import dev.seckill.support.IntegrationTest;
import dev.seckill.support.SandboxProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The checkout page over plain HTTP, as a shopper's browser or a script (curl) reaches it: no sign-in, no cookie, no
 * CSRF token; pay once, then every further action is refused with 409 and says what the payment is.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class SandboxCheckoutPageIT extends IntegrationTest {

    static final JsonMapper JSON = JsonMapper.builder().build();
    final HttpClient http = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).build();

    @Autowired
    PaymentGateway gateway;

    Checkout open(long orderId, long amountCents, Instant payBy) {
        return gateway.open(new CheckoutRequest(orderId, amountCents, payBy, null));
    }

    @Test
    void theShopperSeesTheOrderAndPaysWithOnePlainPost() throws Exception {
        long orderId = System.nanoTime() & 0xFFFF_FFFFL;
        Checkout payment = open(orderId, 1999, Instant.now().plusSeconds(300));

        HttpResponse<String> page = get(payment, "text/html");
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.body()).contains("Sandbox payment provider", Long.toString(orderId), "¥19.99", "Time left",
                "name=\"action\" value=\"pay\"", "name=\"action\" value=\"abandon\"", "method=\"post\"");
        assertThat(page.body()).doesNotContain("<script");
        assertThat(page.headers().firstValue("Content-Security-Policy")).hasValueSatisfying(
                policy -> assertThat(policy).contains("script-src 'self'"));

        HttpResponse<String> paid = post(payment, "action=pay", "*/*");
        assertThat(paid.statusCode()).as(paid.body()).isEqualTo(200);
        assertThat(paid.body()).contains("Paid", "href=\"/my/orders\"").doesNotContain("value=\"pay\"");
        assertThat(json(get(payment, "application/json"))).isEqualTo(
                JSON.readTree("{\"ref\":\"" + payment.paymentRef() + "\",\"status\":\"PAID\"}"));

        HttpResponse<String> again = post(payment, "action=pay", "text/html");
        assertThat(again.statusCode()).isEqualTo(409);
        assertThat(again.body()).contains("paid already");
        HttpResponse<String> abandon = post(payment, "action=abandon", "application/json");
        assertThat(abandon.statusCode()).isEqualTo(409);
        assertThat(json(abandon).path("status").asString()).isEqualTo("PAID");
    }

    @Test
    void anotherActionIsABadRequestAndAnUnknownPaymentIsNotFound() throws Exception {
        Checkout payment = open(1, 100, Instant.now().plusSeconds(300));
        assertThat(post(payment, "action=bogus", "text/html").statusCode()).isEqualTo(400);
        assertThat(post(payment, "", "text/html").statusCode()).isEqualTo(400);
        assertThat(json(get(payment, "application/json")).path("status").asString()).as("nothing happened").isEqualTo("OPEN");

        URI unknown = URI.create(SandboxProvider.url() + "/sandbox/checkout/pay_nosuchpayment");
        assertThat(send(HttpRequest.newBuilder(unknown).GET().build()).statusCode()).isEqualTo(404);
        assertThat(send(form(unknown, "action=pay", "text/html")).statusCode()).isEqualTo(404);
    }

    @Test
    void anAbandonedOrClosedOrLatePaymentSaysSoWith409() throws Exception {
        Checkout abandoned = open(2, 100, Instant.now().plusSeconds(300));
        HttpResponse<String> gaveUp = post(abandoned, "action=abandon", "text/html");
        assertThat(gaveUp.statusCode()).isEqualTo(200);
        assertThat(gaveUp.body()).contains("abandoned");
        assertThat(post(abandoned, "action=pay", "text/html").body()).contains("abandoned");

        Checkout closed = open(3, 100, Instant.now().plusSeconds(300));
        gateway.close(closed.paymentRef());
        HttpResponse<String> refused = post(closed, "action=pay", "text/html");
        assertThat(refused.statusCode()).isEqualTo(409);
        assertThat(refused.body()).contains("merchant closed");

        Checkout late = open(4, 100, Instant.now().minusSeconds(1));
        assertThat(get(late, "text/html").body()).contains("window closed").doesNotContain("value=\"pay\"");
        HttpResponse<String> tooLate = post(late, "action=pay", "text/html");
        assertThat(tooLate.statusCode()).isEqualTo(409);
        assertThat(tooLate.body()).contains("window closed");
    }

    HttpResponse<String> get(Checkout payment, String accept) throws Exception {
        return send(HttpRequest.newBuilder(url(payment)).header("Accept", accept).GET().build());
    }

    HttpResponse<String> post(Checkout payment, String form, String accept) throws Exception {
        return send(form(url(payment), form, accept));
    }

    static HttpRequest form(URI url, String form, String accept) {
        return HttpRequest.newBuilder(url).header("Content-Type", "application/x-www-form-urlencoded")
                .header("Accept", accept).POST(HttpRequest.BodyPublishers.ofString(form)).build();
    }

    URI url(Checkout payment) {
        return URI.create(SandboxProvider.url()).resolve(payment.checkoutUrl());
    }

    HttpResponse<String> send(HttpRequest request) throws Exception {
        return http.send(request, HttpResponse.BodyHandlers.ofString());
    }

    static JsonNode json(HttpResponse<String> response) {
        assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(
                type -> assertThat(type).startsWith("application/json"));
        return JSON.readTree(response.body());
    }
}
