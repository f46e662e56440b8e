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
 * stable codes, never its HTML pages (and what the instance's container answers itself, the same way); and
 * its per-address limits, which leave the load tools' 127.0.0.1 alone and limit any other address (here
 * 127.0.0.2, another address of this machine).
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
