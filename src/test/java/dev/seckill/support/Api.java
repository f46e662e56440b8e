package dev.seckill.support;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;

import org.awaitility.Awaitility;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** A real HTTP client for one running instance, with the admin calls the tests keep needing. */
public final class Api {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final String ADMIN_AUTH = "Basic " + Base64.getEncoder().encodeToString(
            (TestServers.ADMIN_USER + ":" + TestServers.ADMIN_PASSWORD).getBytes(StandardCharsets.UTF_8));

    private final String base;
    private final HttpClient http;

    public Api(int port) {
        this(port, HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5)).build());
    }

    public Api(int port, HttpClient http) {
        this.base = "http://127.0.0.1:" + port;
        this.http = http;
    }

    public Response get(String path, String... headers) {
        return send(request(path, headers).GET());
    }

    public Response post(String path, String json, String... headers) {
        return send(request(path, headers).header("Content-Type", "application/json").POST(body(json)));
    }

    /** A form as a browser posts it ({@code application/x-www-form-urlencoded}), e.g. the payment provider's checkout. */
    public Response postForm(String path, String form, String... headers) {
        return send(request(path, headers).header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(form)));
    }

    public Response put(String path, String json, String... headers) {
        return send(request(path, headers).header("Content-Type", "application/json").PUT(body(json)));
    }

    public Response seckill(long voucherId, String token) {
        return post("/seckill/" + voucherId, null, "Authorization", "Bearer " + token);
    }

    public Response asAdmin(String method, String path, String json) {
        HttpRequest.Builder request = request(path, "Authorization", ADMIN_AUTH, "Content-Type", "application/json");
        return send(request.method(method, body(json)));
    }

    /** Creates a voucher on sale from a minute ago for a day, and returns its id. */
    public long createVoucher(int stock) {
        Instant now = Instant.now();
        return createVoucher(stock, now.minusSeconds(60), now.plusSeconds(86_400));
    }

    public long createVoucher(int stock, Instant begin, Instant end) {
        Response created = asAdmin("POST", "/admin/vouchers", """
                {"title":"Test voucher","price":9.90,"stock":%d,"beginTime":"%s","endTime":"%s"}"""
                .formatted(stock, begin, end));
        created.expectStatus(201);
        return created.json().path("id").asLong();
    }

    /** A voucher with a waiting room: its arrival window opens at {@code begin}, places are let in {@code perSecond}. */
    public long createRoomVoucher(int stock, Instant begin, Instant end, Duration arrivalWindow, int perSecond) {
        return asAdmin("POST", "/admin/vouchers", """
                {"title":"Room voucher","price":9.90,"stock":%d,"beginTime":"%s","endTime":"%s",
                 "arrivalWindow":"%s","admissionsPerSecond":%d}""".formatted(stock, begin, end, arrivalWindow, perSecond))
                .expectStatus(201).json().path("id").asLong();
    }

    public List<String> mintShoppers(int count) {
        Response minted = send(request("/admin/shoppers?count=" + count, "Authorization", ADMIN_AUTH,
                "Accept", "text/csv").POST(HttpRequest.BodyPublishers.noBody()));
        minted.expectStatus(201);
        return minted.body().lines().filter(line -> !line.isBlank()).toList();
    }

    public JsonNode audit(long voucherId) {
        Response audit = asAdmin("GET", "/admin/vouchers/" + voucherId + "/audit", null);
        audit.expectStatus(200);
        return audit.json();
    }

    /**
     * The async path's orders reach MySQL shortly after their 202; waits until none is pending. An audit
     * that does not answer 200 fails at once; on timeout the message shows the last audit.
     */
    public JsonNode awaitNoPendingOrders(long voucherId, Duration timeout) {
        Awaitility.await("no order of voucher " + voucherId + " pending").atMost(timeout)
                .pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(50))
                .until(() -> audit(voucherId), audit -> audit.path("pendingOrders").asLong() == 0);
        // The audit counts MySQL's orders before Redis's pending ones: the last batch acknowledged between
        // the two reads shows no order pending and not all of them in MySQL yet. Once none is pending,
        // nothing moves any more: read it again.
        return audit(voucherId);
    }

    private HttpRequest.Builder request(String path, String... headers) {
        HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(30));
        if (headers.length > 0) {
            builder.headers(headers);
        }
        return builder;
    }

    private static HttpRequest.BodyPublisher body(String json) {
        return json == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(json);
    }

    private Response send(HttpRequest.Builder request) {
        try {
            HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
            return new Response(response.statusCode(), response.headers().firstValue("Content-Type").orElse(""),
                    response.headers().firstValue("X-Instance-Id").orElse(null), response.body());
        } catch (IOException e) {
            throw new IllegalStateException("Request failed: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    public record Response(int status, String contentType, String instanceId, String body) {

        public JsonNode json() {
            return JSON.readTree(body);
        }

        /** The problem's stable code, or null when the body is not a problem. */
        public String code() {
            if (!contentType.startsWith("application/problem+json")) {
                return null;
            }
            return json().path("code").asString(null);
        }

        /** An RFC 9457 problem with this status and stable code, naming the instance that answered. */
        public Response expectProblem(int expectedStatus, String expectedCode) {
            if (status != expectedStatus || !contentType.startsWith("application/problem+json")
                    || !expectedCode.equals(code()) || instanceId == null || instanceId.isBlank()) {
                throw new AssertionError("Expected a " + expectedStatus + " problem '" + expectedCode + "' but got "
                        + status + " " + contentType + " (instance " + instanceId + "): " + body);
            }
            return this;
        }

        public Response expectStatus(int... expected) {
            if (Arrays.stream(expected).noneMatch(s -> s == status)) {
                throw new AssertionError("Expected HTTP " + Arrays.toString(expected) + " but got " + status + ": " + body);
            }
            return this;
        }
    }
}
