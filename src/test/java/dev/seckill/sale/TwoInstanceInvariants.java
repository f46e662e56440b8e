package dev.seckill.sale;

import java.net.http.HttpClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import dev.seckill.support.Api;
import dev.seckill.support.BurstAtOnce;
import dev.seckill.support.Instances;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;
import io.micrometer.core.instrument.MeterRegistry;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two application instances (two Spring contexts, each with its own Tomcat, Redisson client and
 * connection pool) share one Redis and one MySQL, as behind Nginx. 1,000 shoppers send two orders
 * each, all at once, alternating between the instances, for a voucher of 100. Run once per mode by
 * {@link SyncTwoInstanceIT} and {@link AsyncTwoInstanceIT}: the invariants are the same.
 */
abstract class TwoInstanceInvariants {

    static final int STOCK = 100;
    static final int SHOPPERS = 1_000;
    static final int ORDERS_PER_SHOPPER = 2;
    static final int CLIENT_THREADS = 200;

    static ConfigurableApplicationContext instanceA;
    static ConfigurableApplicationContext instanceB;

    /** One after the other: Spring Boot's logging set-up is not safe for two starts at once in one JVM. */
    static void startTwoInstances(String mode) {
        startTwoInstances(mode, "it-" + mode, Map.of());
    }

    /** With settings of their own (another Redis, say), as {@code <prefix>-a} and {@code <prefix>-b}. */
    static void startTwoInstances(String mode, String prefix, Map<String, String> overrides) {
        instanceA = Instances.start(mode, prefix + "-a", overrides);
        instanceB = Instances.start(mode, prefix + "-b", overrides);
    }

    /** 201 in sync mode (in MySQL already), 202 in async mode (accepted, on its way). */
    abstract int acceptedStatus();

    @AfterAll
    static void stop() {
        Instances.closeAll(instanceA, instanceB);
    }

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void neverOversellsNorSellsTwiceToOneShopper() throws Exception {
        ExecutorService clients = Executors.newFixedThreadPool(CLIENT_THREADS);
        // Not the clients' pool as the HttpClient's executor: with all its threads blocked in send(),
        // nobody would be left to read the responses.
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(10)).build();
        Api a = new Api(port(instanceA), http);
        Api b = new Api(port(instanceB), http);
        long voucherId = a.createVoucher(STOCK);
        List<String> tokens = a.mintShoppers(SHOPPERS);

        List<String> requests = Instances.eachShopperTimes(tokens, ORDERS_PER_SHOPPER, 42);

        Map<String, AtomicInteger> answers = new ConcurrentHashMap<>();
        Map<String, AtomicInteger> ordersByShopper = new ConcurrentHashMap<>();
        Map<String, AtomicInteger> servedBy = new ConcurrentHashMap<>();
        List<String> unexpected = Collections.synchronizedList(new ArrayList<>());
        BurstAtOnce.send(clients, requests, voucherId, (token, response) -> {
            String answer = response.status() + " " + (response.status() == acceptedStatus() ? "accepted" : response.code());
            answers.computeIfAbsent(answer, k -> new AtomicInteger()).incrementAndGet();
            servedBy.computeIfAbsent(String.valueOf(response.instanceId()), k -> new AtomicInteger()).incrementAndGet();
            if (response.status() == acceptedStatus()) {
                ordersByShopper.computeIfAbsent(token, k -> new AtomicInteger()).incrementAndGet();
            } else if (!List.of("409 sold-out", "409 already-ordered", "429 request-in-flight").contains(answer)) {
                unexpected.add(answer + ": " + response.body());
            }
        }, a, b);
        clients.shutdown();

        System.out.printf("Two-instance burst: %d requests, answers %s, served by %s%n", requests.size(), answers, servedBy);
        assertThat(unexpected).as("answers other than accepted, sold-out, already-ordered, request-in-flight").isEmpty();
        assertThat(answers.get(acceptedStatus() + " accepted")).as("orders accepted").hasValue(STOCK);
        assertThat(ordersByShopper).hasSize(STOCK);
        assertThat(ordersByShopper.values()).allSatisfy(count -> assertThat(count).hasValue(1));
        assertThat(servedBy).hasSize(2);
        b.awaitNoPendingOrders(voucherId, Duration.ofSeconds(30));

        JdbcTemplate db = instanceA.getBean(JdbcTemplate.class);
        assertThat(db.queryForObject("SELECT COUNT(*) FROM voucher_order WHERE voucher_id = ?", Long.class, voucherId))
                .isEqualTo(STOCK);
        assertThat(db.queryForObject("SELECT COUNT(DISTINCT user_id) FROM voucher_order WHERE voucher_id = ?",
                Long.class, voucherId)).isEqualTo(STOCK);
        assertThat(db.queryForObject("SELECT stock FROM seckill_voucher WHERE voucher_id = ?", Integer.class, voucherId))
                .isZero();
        JsonNode audit = b.audit(voucherId);
        assertThat(audit.path("redisStock").asLong()).isZero();
        assertThat(audit.path("duplicateBuyers").asLong()).isZero();
        assertThat(audit.path("oversold").asLong()).isZero();
        assertThat(audit.path("consistent").asBoolean()).as(audit.toString()).isTrue();
        for (ConfigurableApplicationContext instance : List.of(instanceA, instanceB)) {
            MeterRegistry meters = instance.getBean(MeterRegistry.class);
            // The sync path's shopper lock is held while its request waits for the voucher's lock: with a
            // fixed lease shorter than that wait, locks expired under their holders in this burst.
            assertThat(meters.get("seckill.lock.expired").counter().count()).as("locks expired while held").isZero();
            System.out.printf("Voucher lock: %d waits, longest %.0f ms%n", meters.get("seckill.lock.wait").tag("lock", "voucher")
                    .timer().count(), meters.get("seckill.lock.wait").tag("lock", "voucher").timer().max(TimeUnit.MILLISECONDS));
        }
    }


    private static int port(ConfigurableApplicationContext context) {
        return Instances.port(context);
    }
}
