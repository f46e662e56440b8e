package dev.seckill.sandbox;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.seckill.payment.WebhookSignature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A merchant's webhook on an ephemeral port: records every delivery in arrival order, with what its signature
 * verified as, and answers 500 to the first deliveries of a payment when told to.
 */
final class WebhookReceiver implements AutoCloseable {

    record Delivery(String eventId, String type, String paymentRef, WebhookSignature.Verdict signature, int answered) {
    }

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final HttpServer server;
    private final WebhookSignature signature;
    private final List<Delivery> deliveries = new CopyOnWriteArrayList<>();
    private final Map<String, AtomicInteger> failuresLeft = new ConcurrentHashMap<>();

    WebhookReceiver(String secret) throws IOException {
        signature = new WebhookSignature(secret);
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.setExecutor(Executors.newFixedThreadPool(4));
        server.createContext("/payments/webhook", this::handle);
        server.start();
    }

    String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/payments/webhook";
    }

    /** The next {@code count} deliveries for this payment are answered 500. */
    void failFirst(String paymentRef, int count) {
        failuresLeft.put(paymentRef, new AtomicInteger(count));
    }

    List<Delivery> of(String paymentRef) {
        return deliveries.stream().filter(delivery -> paymentRef.equals(delivery.paymentRef())).toList();
    }

    private void handle(HttpExchange exchange) throws IOException {
        String body;
        try (InputStream in = exchange.getRequestBody()) {
            body = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        JsonNode event = JSON.readTree(body);
        String ref = event.path("payment").path("ref").asString();
        AtomicInteger failures = failuresLeft.get(ref);
        int status = failures != null && failures.getAndDecrement() > 0 ? 500 : 200;
        WebhookSignature.Verdict verdict = signature.verify(exchange.getRequestHeaders().getFirst(WebhookSignature.HEADER),
                body, Instant.now(), Duration.ofMinutes(5));
        if (!"application/json".equals(exchange.getRequestHeaders().getFirst("Content-Type"))) {
            verdict = WebhookSignature.Verdict.MALFORMED;
        }
        deliveries.add(new Delivery(event.path("id").asString(), event.path("type").asString(), ref, verdict, status));
        exchange.sendResponseHeaders(status, -1);
        exchange.close();
    }

    @Override
    public void close() {
        server.stop(0);
        ((java.util.concurrent.ExecutorService) server.getExecutor()).shutdownNow();
    }
}
