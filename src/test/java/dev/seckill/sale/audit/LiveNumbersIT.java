package dev.seckill.sale.audit;

import java.net.http.HttpClient;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.ToLongFunction;

import dev.seckill.support.Api;
import dev.seckill.support.BurstAtOnce;
import dev.seckill.support.Instances;
import dev.seckill.support.RedisServer;
import dev.seckill.support.TestServers;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two async instances (own Spring contexts, one Redis, one MySQL) take a small burst; then the live numbers
 * must add up against the audit and against what the client sent: every request is an accepted order or a
 * refusal counted on the instance that answered it, every order was written by some instance's consumer,
 * and the same counters are on /actuator/prometheus, for admins only.
 */
class LiveNumbersIT {

    static final int STOCK = 20;
    static final int SHOPPERS = 60;
    static final int ORDERS_PER_SHOPPER = 2;

    /** Its own database, emptied first: a new Redis would make the last run's epoch marker count as a loss. */
    static final String DB_URL = TestServers.properties().get("spring.datasource.url")
            .replace("/seckill_test", "/seckill_live_it");

    static RedisServer redis;
    static ConfigurableApplicationContext instanceA;
    static ConfigurableApplicationContext instanceB;
    static Api a;
    static Api b;

    /**
     * Its own Redis: every instance of any test run on the shared one reads every voucher's stream in the one
     * consumer group, so orders could be written by consumers outside this test, which count them elsewhere.
     */
    @BeforeAll
    static void start() throws Exception {
        redis = RedisServer.start(null);
        Map<String, String> servers = TestServers.properties();
        try (Connection db = DriverManager.getConnection(DB_URL, servers.get("spring.datasource.username"),
                servers.get("spring.datasource.password")); Statement sql = db.createStatement()) {
            sql.execute("DROP DATABASE `" + db.getCatalog() + "`");
            sql.execute("CREATE DATABASE `" + db.getCatalog() + "`");
        }
        Map<String, String> own = Map.of("spring.data.redis.port", Integer.toString(redis.port()),
                "spring.data.redis.database", "0", "spring.datasource.url", DB_URL);
        // one after the other: Spring Boot's logging set-up is not safe for two starts at once in one JVM
        instanceA = Instances.start("async", "it-live-a", own);
        instanceB = Instances.start("async", "it-live-b", own);
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(10)).build();
        a = new Api(Instances.port(instanceA), http);
        b = new Api(Instances.port(instanceB), http);
    }

    @AfterAll
    static void stop() throws Exception {
        Instances.closeAll(instanceA, instanceB);
        if (redis != null) {
            redis.close();
        }
    }

    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void theInstancesCountersAddUpToTheAuditAndToTheRequestsSent() throws Exception {
        long voucherId = a.createVoucher(STOCK);
        List<String> tokens = a.mintShoppers(SHOPPERS);
        List<String> requests = Instances.eachShopperTimes(tokens, ORDERS_PER_SHOPPER, 7);

        Map<String, AtomicInteger> answers = new ConcurrentHashMap<>();
        ExecutorService clients = Executors.newFixedThreadPool(40);
        BurstAtOnce.send(clients, requests, voucherId, (token, response) -> {
            String answer = response.status() == 202 ? "accepted" : response.code();
            answers.computeIfAbsent(answer, k -> new AtomicInteger()).incrementAndGet();
        }, a, b);
        clients.shutdown();
        assertThat(answers.get("accepted")).as("%s", answers).hasValue(STOCK);

        JsonNode audit = b.awaitNoPendingOrders(voucherId, Duration.ofSeconds(30));
        long orders = audit.path("orders").asLong();
        assertThat(orders).isEqualTo(STOCK);

        // Snapshots are written about once a second: wait for the ones that count everything.
        JsonNode live = awaitLive(voucherId, requests.size(), orders, Duration.ofSeconds(15));
        System.out.printf("Live numbers after %d requests (answers %s): %s%n", requests.size(), answers, live);
        assertThat(live.path("voucherId").asLong()).isEqualTo(voucherId);
        assertThat(live.path("at").asString()).isNotBlank();
        assertThat(live.path("stockInRedis").asLong()).isEqualTo(audit.path("redisStock").asLong()).isZero();
        assertThat(live.path("stockInMySql").asLong()).isEqualTo(audit.path("dbStock").asLong()).isZero();
        assertThat(live.path("ordersInMySql").asLong()).isEqualTo(orders);
        assertThat(live.path("pending").asLong()).isZero();
        assertThat(live.path("oldestPendingAgeMillis").asLong()).isZero();
        assertThat(live.path("deadLetters").asLong()).isZero();
        List<String> names = new ArrayList<>();
        live.path("instances").forEach(instance -> names.add(instance.path("instance").asString()));
        assertThat(names).contains("it-live-a", "it-live-b");

        // Each instance's refusals by code add up to the refusals the client saw of that code.
        for (Map.Entry<String, AtomicInteger> answer : answers.entrySet()) {
            if (!answer.getKey().equals("accepted")) {
                assertThat(sum(live, instance -> instance.path("refused").path(answer.getKey()).asLong()))
                        .as("refused %s in %s", answer.getKey(), live).isEqualTo(answer.getValue().get());
            }
        }
    }

    @Test
    void anUnknownVoucherIsAProblemAndTheNumbersAreForAdminsOnly() {
        a.asAdmin("GET", "/admin/vouchers/999999999/live", null).expectProblem(404, "voucher-not-found");
        a.get("/admin/vouchers/1/live").expectProblem(401, "admin-credentials-missing");
    }

    @Test
    void prometheusListsTheSaleMetersForAdminsOnly() throws Exception {
        a.get("/actuator/prometheus").expectProblem(401, "admin-credentials-missing");
        b.get("/actuator/prometheus", "Authorization", "Basic dGVzdC1hZG1pbjp3cm9uZw==")
                .expectProblem(401, "admin-credentials-invalid");
        assertThat(a.get("/actuator/health").status()).isEqualTo(200);

        long voucherId = a.createVoucher(1);
        List<String> tokens = a.mintShoppers(2);
        a.seckill(voucherId, tokens.get(0)).expectStatus(202);
        a.seckill(voucherId, tokens.get(1)).expectProblem(409, "sold-out");
        a.awaitNoPendingOrders(voucherId, Duration.ofSeconds(30));
        a.get("/ping").expectStatus(200);

        String scrapeA = a.asAdmin("GET", "/actuator/prometheus", null).expectStatus(200).body();
        String scrapeB = b.asAdmin("GET", "/actuator/prometheus", null).expectStatus(200).body();
        String voucher = "voucher=\"" + voucherId + "\"";
        assertThat(line(scrapeA, "seckill_orders_accepted_total{", voucher)).contains("mode=\"async\"").endsWith(" 1.0");
        assertThat(line(scrapeA, "seckill_orders_refused_total{", voucher)).contains("code=\"sold-out\"").endsWith(" 1.0");
        assertThat(scrapeA).contains("seckill_redis_enqueue_seconds_count", "seckill_redis_enqueue_seconds_bucket",
                "seckill_redis_enqueue_calls_total", "seckill_redis_enqueue_orders_total", "seckill_lock_wait_seconds_count",
                "seckill_mysql_write_seconds_count");
        // the consumer that wrote the order counted it, and its instance shows the voucher's backlog
        String written = line(scrapeA, "seckill_orders_written_total{", voucher).endsWith(" 1.0") ? scrapeA : scrapeB;
        assertThat(line(written, "seckill_orders_written_total{", voucher)).endsWith(" 1.0");
        assertThat(line(written, "seckill_orders_pending{", voucher)).endsWith(" 0.0");
        assertThat(written).contains("seckill_orders_pending_age_milliseconds{" + voucher);
        // order requests are counted by the sale's meters only, not observed as HTTP requests; others are
        assertThat(scrapeA).contains("http_server_requests_seconds_count{").contains("uri=\"/ping\"")
                .doesNotContain("uri=\"/seckill/{voucherId}\"");
    }

    /** What the instances' live numbers add up to, shown whole if they never add up in time. */
    private record LiveTotals(long accepted, long refused, long written, JsonNode live) {
    }

    private static JsonNode awaitLive(long voucherId, int requests, long orders, Duration timeout) {
        return Awaitility.await("live numbers: accepted = written = " + orders + ", accepted + refused = " + requests)
                .atMost(timeout).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(200))
                .until(() -> liveTotals(voucherId), totals -> totals.accepted() == orders
                        && totals.accepted() + totals.refused() == requests && totals.written() == orders)
                .live();
    }

    private static LiveTotals liveTotals(long voucherId) {
        JsonNode live = a.asAdmin("GET", "/admin/vouchers/" + voucherId + "/live", null).expectStatus(200).json();
        long accepted = sum(live, instance -> instance.path("accepted").asLong());
        long refused = sum(live, instance -> {
            long n = 0;
            for (JsonNode count : instance.path("refused")) {
                n += count.asLong();
            }
            return n;
        });
        long written = sum(live, instance -> instance.path("written").asLong());
        return new LiveTotals(accepted, refused, written, live);
    }

    private static long sum(JsonNode live, ToLongFunction<JsonNode> count) {
        long sum = 0;
        for (JsonNode instance : live.path("instances")) {
            sum += count.applyAsLong(instance);
        }
        return sum;
    }

    /** The scrape's one line of this metric for this voucher. */
    private static String line(String scrape, String metric, String voucher) {
        return scrape.lines().filter(l -> l.startsWith(metric) && l.contains(voucher)).findFirst()
                .orElseThrow(() -> new AssertionError("no " + metric + voucher + "} in the scrape"));
    }
}
