package dev.seckill.web;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import dev.seckill.support.NginxFrontedTest;
import dev.seckill.support.Nginx;
import dev.seckill.support.RawHttp;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

/**
 * What Nginx answers itself, with the cluster's own rules in front of a real instance: problems with
 * stable codes, never its HTML pages (and what the instance's container answers itself, the same way); and its
 * per-address limits on every route, which leave the load tools' 127.0.0.1 alone and limit any other address
 * (127.0.0.2 and 127.0.1.x here, other addresses of this machine; each test its own, as each has its own count).
 */
class EdgeIT extends NginxFrontedTest {

    static final String OTHER_CLIENT = "127.0.0.2";

    @Autowired
    JdbcTemplate db;

    @Test
    void aBodyOverTheAppsLimitIsRefusedByNginxAsAProblem() {
        long vouchers = count("voucher");
        String huge = "{\"title\":\"" + "x".repeat(20_000) + "\"}";
        RawHttp.Answer answer = RawHttp.send("127.0.0.1", nginx.port(), "POST /admin/vouchers", huge,
                "Authorization", "Basic dGVzdC1hZG1pbjp0ZXN0LWFkbWluLXBhc3N3b3Jk");
        answer.expectProblem(413, "body-too-large");
        assertThat(answer.header("X-Instance-Id")).isEqualTo("nginx");
        assertThat(count("voucher")).isEqualTo(vouchers);
    }

    @Test
    void aHeaderOf64KilobytesIsRefusedAsAProblemByNginxAndByTheInstance() {
        String big = "x".repeat(64 * 1024);
        RawHttp.send(nginx.port(), "GET /vouchers", "X-Big", big).expectProblem(431, "header-too-large");
        RawHttp.Answer direct = RawHttp.send(port, "GET /vouchers", "X-Big", big);
        assertThat(direct.status()).isIn(400, 431);
        assertThat(direct.contentType()).startsWith("application/problem+json");
    }

    @Test
    void aRequestNginxCannotParseIsABadRequestProblem() {
        RawHttp.send(nginx.port(), "GET /vouchers%00").expectProblem(400, "bad-request");
        RawHttp.send(nginx.port(), "GET /.nginx-problem/rate-limited").expectProblem(404, "not-found");
    }

    @Test
    void anotherAddressIsLimitedOnTheSeckillPathAndTheLoadToolsAddressIsNot() throws Exception {
        long voucherId = api.createVoucher(0);
        String token = api.mintShoppers(1).get(0);

        Map<Integer, AtomicInteger> fromOther = burst(OTHER_CLIENT, "POST /seckill/" + voucherId, token, 200);
        assertThat(fromOther.get(429)).as("%s", fromOther).isNotNull();
        assertThat(fromOther.get(429).get()).as("%s", fromOther).isGreaterThanOrEqualTo(100);

        Map<Integer, AtomicInteger> fromLoadTools = burst("127.0.0.1", "POST /seckill/" + voucherId, token, 200);
        assertThat(fromLoadTools.keySet()).as("%s", fromLoadTools).containsOnly(409);
    }

    @Test
    void aLimitedAnswerIsAProblemWithRetryAfter() {
        RawHttp.Answer limited = null;
        for (int i = 0; i < 200 && limited == null; i++) {
            RawHttp.Answer answer = RawHttp.send(OTHER_CLIENT, nginx.port(), "GET /admin/vouchers/1", null);
            if (answer.status() == 429) {
                limited = answer;
            }
        }
        assertThat(limited).as("200 admin requests in a row from one address").isNotNull();
        limited.expectProblem(429, "rate-limited");
        assertThat(limited.header("Retry-After")).isEqualTo("1");
        assertThat(limited.header("X-Instance-Id")).isEqualTo("nginx");
    }

    @Test
    void noInstanceBehindNginxIsAProblemNotAnHtmlPage() throws IOException {
        try (Nginx dead = Nginx.start(Nginx.freePort(), "")) {
            RawHttp.Answer answer = RawHttp.send(dead.port(), "GET /vouchers");
            answer.expectProblem(502, "instance-unavailable");
            assertThat(answer.header("Retry-After")).isEqualTo("1");
        }
    }

    @Test
    void anInstanceThatDoesNotAnswerIsAGatewayTimeoutProblem() throws Exception {
        try (ServerSocket silent = new ServerSocket(0); Nginx impatient = Nginx.start(silent.getLocalPort(), "proxy_read_timeout 1s;")) {
            List<Socket> held = new ArrayList<>();
            Thread acceptor = new Thread(() -> {
                try {
                    while (true) {
                        held.add(silent.accept()); // accepted, never answered
                    }
                } catch (IOException closed) {
                    // the test is over
                }
            });
            acceptor.start();
            RawHttp.send(impatient.port(), "GET /vouchers").expectProblem(504, "gateway-timeout");
        }
    }

    /** Requests Nginx refuses itself, most before it has chosen a location: each its own problem, never HTML. */
    static Stream<Arguments> refusedByNginx() {
        String longUrl = "/vouchers/" + "1".repeat(12 * 1024);
        StringBuilder manyHeaders = new StringBuilder();
        for (int i = 0; i < 40; i++) {
            manyHeaders.append("X-Filler-").append(i).append(": ").append("x".repeat(1_000)).append("\r\n");
        }
        return Stream.of(
                arguments("TRACE / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n", 405, "method-not-allowed"),
                arguments("TRACE /admin/vouchers HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n", 405,
                        "method-not-allowed"),
                arguments("GET " + longUrl + " HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n", 414, "uri-too-long"),
                arguments("GET /vouchers HTTP/1.1\r\nHost: localhost\r\n" + manyHeaders + "Connection: close\r\n\r\n", 431,
                        "header-too-large"),
                arguments("POST /seckill/1 HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: gzip\r\nContent-Type: application/json"
                        + "\r\nConnection: close\r\n\r\n{}", 501, "not-implemented"),
                arguments("GET /vouchers HTTP/2.0\r\nHost: localhost\r\n\r\n", 505, "http-version-not-supported"),
                arguments("GET /vouchers HTTP/1.1\r\nConnection: close\r\n\r\n", 400, "bad-request"),
                arguments("POST /seckill/1 HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 400, "bad-request"));
    }

    @ParameterizedTest
    @MethodSource("refusedByNginx")
    void everyRequestNginxRefusesItselfIsAProblemWithItsCode(String request, int status, String code) {
        RawHttp.Answer answer = RawHttp.sendRaw("127.0.0.1", nginx.port(), request);
        answer.expectProblem(status, code);
        assertThat(answer.header("X-Instance-Id")).as(answer.body()).isEqualTo("nginx");
        assertThat(answer.body()).doesNotContain("<html");
    }

    /**
     * The instance's container answers these itself (Tomcat, or a handler's sendError): a problem with a code too,
     * and GET /error is no page of Spring Boot's (it was 500 {"status":999}) but a path like any other.
     */
    static Stream<Arguments> refusedByTheInstance() {
        return Stream.of(
                arguments("TRACE / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n", 405, "method-not-allowed"),
                arguments("POST /seckill/1 HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: gzip\r\nContent-Type: application/json"
                        + "\r\nConnection: close\r\n\r\n{}", 501, "not-implemented"),
                arguments("GET /vouchers HTTP/2.0\r\nHost: localhost\r\n\r\n", 505, "http-version-not-supported"),
                arguments("GET /vouchers/" + "1".repeat(12 * 1024) + " HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n",
                        400, "bad-request"),
                arguments("GET /error HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n", 404, "not-found"),
                arguments("GET /css/seckill.css HTTP/1.1\r\nHost: localhost\r\nRange: bytes=10000000-\r\nConnection: close\r\n\r\n",
                        416, "range-not-satisfiable"));
    }

    @ParameterizedTest
    @MethodSource("refusedByTheInstance")
    void everyRequestTheContainerRefusesIsAProblemWithItsCode(String request, int status, String code) {
        RawHttp.Answer answer = RawHttp.sendRaw("127.0.0.1", port, request);
        answer.expectProblem(status, code);
        assertThat(answer.header("X-Instance-Id")).as(answer.body()).isEqualTo("test-instance");
    }

    @Test
    void theErrorPathThroughNginxIsNotFound() {
        RawHttp.Answer answer = RawHttp.send(nginx.port(), "GET /error");
        answer.expectProblem(404, "not-found");
        assertThat(answer.body()).doesNotContain("999");
    }

    /**
     * Every route is behind a per-address limit: one address flooding any of these meets Nginx's 429 within a
     * bounded number of requests. Each route has an address of its own, so none inherits another's spent count.
     */
    static Stream<Arguments> everyDoor() {
        return Stream.of(
                // pages and what their scripts call
                arguments("127.0.1.1", "GET /", 400),
                arguments("127.0.1.2", "GET /sales/1", 400),
                arguments("127.0.1.3", "GET /my/orders", 400),
                arguments("127.0.1.4", "GET /shop/orders/1", 400),
                arguments("127.0.1.5", "GET /sign-in", 400),
                // public reads
                arguments("127.0.1.6", "GET /vouchers", 400),
                arguments("127.0.1.7", "GET /vouchers/1", 400),
                arguments("127.0.1.8", "GET /vouchers/999999999999", 400),
                // the API's reads, anything else
                arguments("127.0.1.9", "GET /orders/1", 400),
                arguments("127.0.1.10", "GET /ping", 400),
                arguments("127.0.1.11", "GET /no-such-path", 400),
                // every route that takes the admin login, with and without the trailing slash
                arguments("127.0.1.12", "GET /admin", 400),
                arguments("127.0.1.13", "GET /admin/ui", 400),
                arguments("127.0.1.14", "GET /admin/vouchers/1", 400),
                arguments("127.0.1.15", "GET /actuator/metrics", 400),
                arguments("127.0.1.16", "GET /actuator/health", 400),
                arguments("127.0.1.17", "GET /actuator", 400),
                // purchases
                arguments("127.0.1.18", "POST /seckill/1", 400),
                arguments("127.0.1.19", "POST /shop/seckill/1", 400),
                // what the pages load: a generous limit, but a limit
                arguments("127.0.1.20", "GET /css/seckill.css", 5_000),
                arguments("127.0.1.21", "GET /js/clock.js", 5_000));
    }

    @ParameterizedTest
    @MethodSource("everyDoor")
    void everyDoorIsLimitedPerAddress(String from, String requestLine, int atMost) throws Exception {
        RawHttp.Answer limited = firstLimited(from, requestLine, atMost);
        assertThat(limited).as("%d × %s from %s", atMost, requestLine, from).isNotNull();
        limited.expectProblem(429, "rate-limited");
        assertThat(limited.header("Retry-After")).isEqualTo("1");
        assertThat(limited.header("X-Instance-Id")).isEqualTo("nginx");
    }

    private static final Pattern LOADED = Pattern.compile("(?:src|href)=\"(/(?:css|js|webjars)/[^\"]+)\"");

    /**
     * A visitor with a cold cache opens three pages in quick succession, each with everything it loads (as a
     * browser does, several at once), and the voucher page starts following an order: nothing is refused.
     */
    @Test
    void aNormalVisitIsNeverRefused() throws Exception {
        String visitor = "127.0.2.1";
        long voucherId = api.createVoucher(5);
        ExecutorService browser = Executors.newFixedThreadPool(6);
        try {
            for (String page : List.of("/", "/sales/" + voucherId, "/sign-in")) {
                RawHttp.Answer answer = RawHttp.send(visitor, nginx.port(), "GET " + page, null);
                assertThat(answer.status()).as(page).isEqualTo(200);
                List<String> loaded = new ArrayList<>();
                Matcher matcher = LOADED.matcher(answer.body());
                while (matcher.find()) {
                    loaded.add(matcher.group(1));
                }
                assertThat(loaded).as("what %s loads", page).isNotEmpty();
                List<Future<RawHttp.Answer>> loads = new ArrayList<>();
                for (String resource : loaded) {
                    loads.add(browser.submit(() -> RawHttp.send(visitor, nginx.port(), "GET " + resource, null)));
                }
                for (int i = 0; i < loads.size(); i++) {
                    assertThat(loads.get(i).get().status()).as(loaded.get(i)).isEqualTo(200);
                }
            }
            // the voucher page's script asks after the order about once a second; a few polls close together
            for (int i = 0; i < 5; i++) {
                assertThat(RawHttp.send(visitor, nginx.port(), "GET /shop/orders?voucherId=" + voucherId, null).status())
                        .isNotEqualTo(429);
            }
        } finally {
            browser.shutdown();
        }
    }

    /** Up to {@code atMost} requests from 16 clients of one address, until the first 429: that answer, or null. */
    private RawHttp.Answer firstLimited(String from, String requestLine, int atMost) throws Exception {
        AtomicReference<RawHttp.Answer> limited = new AtomicReference<>();
        AtomicInteger sent = new AtomicInteger();
        ExecutorService clients = Executors.newFixedThreadPool(16);
        try {
            List<Future<?>> workers = new ArrayList<>();
            for (int c = 0; c < 16; c++) {
                workers.add(clients.submit(() -> {
                    while (limited.get() == null && sent.incrementAndGet() <= atMost) {
                        RawHttp.Answer answer = RawHttp.send(from, nginx.port(), requestLine, null);
                        if (answer.status() == 429) {
                            limited.compareAndSet(null, answer);
                        }
                    }
                }));
            }
            for (Future<?> worker : workers) {
                worker.get();
            }
        } finally {
            clients.shutdown();
        }
        return limited.get();
    }

    private Map<Integer, AtomicInteger> burst(String from, String requestLine, String token, int requests) throws Exception {
        Map<Integer, AtomicInteger> statuses = new ConcurrentHashMap<>();
        ExecutorService clients = Executors.newFixedThreadPool(20);
        try {
            List<Future<?>> sent = new ArrayList<>();
            for (int i = 0; i < requests; i++) {
                sent.add(clients.submit(() -> {
                    RawHttp.Answer answer = RawHttp.send(from, nginx.port(), requestLine, null, "Authorization", "Bearer " + token);
                    if (answer.status() == 429) {
                        answer.expectProblem(429, "rate-limited");
                    }
                    statuses.computeIfAbsent(answer.status(), s -> new AtomicInteger()).incrementAndGet();
                }));
            }
            for (Future<?> f : sent) {
                f.get();
            }
        } finally {
            clients.shutdown();
        }
        return statuses;
    }

    private long count(String table) {
        return db.queryForObject("SELECT COUNT(*) FROM " + table, Long.class);
    }
}
