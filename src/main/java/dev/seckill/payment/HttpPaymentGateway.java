package dev.seckill.payment;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Map;

import org.springframework.stereotype.Component;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The provider's API over HTTP (JSON, the shared secret on every call): the sandbox provider's, a process of its own.
 * Every call is bounded by the timeouts of {@link ProviderSettings}; a call that cannot be made, or is answered with
 * anything but 2xx and an outcome this port knows, throws {@link ProviderUnavailable}: the provider could not be
 * asked, and nothing is assumed of what it did (a start is refused payment-unavailable, a notification is delivered
 * again, an order's expiry tries again on its next round).
 */
@Component
class HttpPaymentGateway implements PaymentGateway {

    /** {@code <provider-url>/sandbox/api/payments}, the calls' paths go after it */
    private final String base;
    private final HttpClient http;
    private final ProviderSettings settings;
    private final JsonMapper json;

    HttpPaymentGateway(ProviderSettings settings, JsonMapper json) {
        String url = settings.providerUrl();
        this.base = (url.endsWith("/") ? url.substring(0, url.length() - 1) : url) + "/sandbox/api/payments";
        this.http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(settings.providerConnectTimeout()).followRedirects(HttpClient.Redirect.NEVER).build();
        this.settings = settings;
        this.json = json;
    }

    @Override
    public Checkout open(CheckoutRequest request) {
        JsonNode answer = call("POST", "", Map.of("orderId", request.orderId(), "amountCents", request.amountCents(),
                "payBy", request.payBy().toString()), request.idempotencyKey());
        String ref = answer.path("ref").asString("");
        String checkoutUrl = answer.path("checkoutUrl").asString("");
        if (ref.isEmpty() || checkoutUrl.isEmpty()) {
            throw new ProviderUnavailable("The provider opened no payment: " + answer);
        }
        return new Checkout(ref, URI.create(checkoutUrl));
    }

    @Override
    public CloseOutcome close(String paymentRef) {
        return outcome(CloseOutcome.class, call("POST", "/" + encode(paymentRef) + "/close", Map.of()), "outcome");
    }

    /** @throws IllegalArgumentException when {@code amountCents} is not what was paid (answered 422) */
    @Override
    public RefundOutcome refund(String paymentRef, long amountCents) {
        return outcome(RefundOutcome.class, call("POST", "/" + encode(paymentRef) + "/refund",
                Map.of("amountCents", amountCents)), "outcome");
    }

    @Override
    public PaymentState status(String paymentRef) {
        return outcome(PaymentState.class, call("GET", "/" + encode(paymentRef), null), "state");
    }

    private JsonNode call(String method, String path, Map<String, Object> body) {
        return call(method, path, body, null);
    }

    private JsonNode call(String method, String path, Map<String, Object> body, String idempotencyKey) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + path)).timeout(settings.providerTimeout())
                .header("Authorization", "Bearer " + settings.providerSecret()).header("Accept", "application/json");
        if (idempotencyKey != null) {
            request.header("Idempotency-Key", idempotencyKey);
        }
        if (body == null) {
            request.GET();
        } else {
            request.header("Content-Type", "application/json")
                    .method(method, HttpRequest.BodyPublishers.ofString(json.writeValueAsString(body)));
        }
        HttpResponse<String> answer;
        try {
            answer = http.send(request.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new ProviderUnavailable(method + " " + path + ": " + e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ProviderUnavailable(method + " " + path + ": interrupted");
        }
        int status = answer.statusCode();
        if (status == 422) {
            throw new IllegalArgumentException("The provider refused " + method + " " + path + ": " + answer.body());
        }
        if (status < 200 || status >= 300) {
            throw new ProviderUnavailable(method + " " + path + " answered " + status);
        }
        try {
            return json.readTree(answer.body());
        } catch (JacksonException e) {
            throw new ProviderUnavailable(method + " " + path + " answered what is not JSON");
        }
    }

    private static <E extends Enum<E>> E outcome(Class<E> type, JsonNode answer, String field) {
        String name = answer.path(field).asString("");
        try {
            return Enum.valueOf(type, name);
        } catch (IllegalArgumentException unknown) {
            throw new ProviderUnavailable("The provider answered " + field + " \"" + name + "\", which is none of "
                    + type.getSimpleName());
        }
    }

    private static String encode(String paymentRef) {
        return URLEncoder.encode(paymentRef, StandardCharsets.UTF_8);
    }

    /** The provider could not be asked, or answered what no call of the port expects. */
    static final class ProviderUnavailable extends RuntimeException {
        ProviderUnavailable(String message) {
            super(message);
        }
    }
}
