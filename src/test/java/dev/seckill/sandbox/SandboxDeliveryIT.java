package dev.seckill.sandbox;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;

import dev.seckill.payment.WebhookSignature.Verdict;
import dev.seckill.sandbox.WebhookReceiver.Delivery;
import dev.seckill.support.SandboxProvider;
import dev.seckill.support.TestServers;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Webhook delivery against a real HTTP receiver: retried until answered 2xx, signed with the shared secret, on
 * purpose delivered twice (duplicate-rate 1) and last event first (out-of-order). A database of its own: every
 * instance running against a database delivers its notifications, and only this context's deliverer must post to
 * this receiver (another sandbox, on the shared database, would take them to its own webhook). The sandbox's tables
 * are made as the shop's migration makes them.
 */
@SpringBootTest(classes = SandboxApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {SandboxApplication.CONFIG, "seckill.sandbox.webhook-secret=" + TestServers.WEBHOOK_SECRET,
                "seckill.sandbox.api-secret=" + SandboxProvider.API_SECRET,
                "spring.datasource.hikari.minimum-idle=1", "spring.datasource.hikari.idle-timeout=10000",
                "seckill.sandbox.duplicate-rate=1.0", "seckill.sandbox.out-of-order=true",
                "seckill.sandbox.delay-min=0s", "seckill.sandbox.delay-max=0s",
                "seckill.sandbox.poll-interval=50ms", "seckill.sandbox.retry-backoff=100ms",
                "seckill.sandbox.retry-backoff-max=400ms"})
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class SandboxDeliveryIT {

    static final WebhookReceiver RECEIVER = receiver();
    static final Duration WAIT = Duration.ofSeconds(20);

    @Autowired
    MerchantApi merchant;

    @Autowired
    SandboxCheckout checkout;

    @Autowired
    DeliveryQueue queue;

    @Autowired
    WebhookDeliverer deliverer;

    @Autowired
    JdbcTemplate jdbc;

    @Autowired
    MeterRegistry meters;

    @DynamicPropertySource
    static void servers(DynamicPropertyRegistry registry) throws SQLException, IOException {
        Map<String, String> servers = TestServers.properties();
        String url = servers.get("spring.datasource.url").replace("/seckill_test", "/seckill_sandbox_it");
        freshDatabase(url, servers);
        servers.entrySet().stream().filter(server -> server.getKey().startsWith("spring.datasource."))
                .forEach(server -> registry.add(server.getKey(), server::getValue));
        registry.add("spring.datasource.url", () -> url);
        registry.add("seckill.sandbox.webhook-url", RECEIVER::url);
    }

    @AfterAll
    static void stopReceiver() {
        RECEIVER.close();
    }

    Payment open(long amountCents) {
        SandboxPayment payment = merchant.open(new MerchantApi.OpenRequest(System.nanoTime() & 0xFFFF_FFFFL, amountCents,
                Instant.now().plusSeconds(300)), null);
        return new Payment(payment.ref());
    }

    record Payment(String paymentRef) {
    }

    @Test
    void aNotificationIsRetriedUntilAnswered2xxAndEveryDeliveryIsSigned() {
        Payment payment = open(1999);
        RECEIVER.failFirst(payment.paymentRef(), 3);
        assertThat(checkout.abandon(payment.paymentRef()).orElseThrow().outcome()).isEqualTo(SandboxCheckout.Outcome.DONE);

        await().atMost(WAIT).until(() -> RECEIVER.of(payment.paymentRef()).stream().anyMatch(d -> d.answered() == 200));
        List<Delivery> deliveries = RECEIVER.of(payment.paymentRef());
        assertThat(deliveries).extracting(Delivery::answered).startsWith(500, 500, 500, 200);
        assertThat(deliveries).extracting(Delivery::type).containsOnly("payment.canceled");
        assertThat(deliveries).extracting(Delivery::eventId).as("one event, retried").containsOnly(deliveries.get(0).eventId());
        assertThat(deliveries).extracting(Delivery::signature).containsOnly(Verdict.VALID);

        Map<String, Object> row = jdbc.queryForMap("SELECT attempts, delivered_at, last_error FROM sandbox_delivery "
                + "WHERE payment_ref = ?", payment.paymentRef());
        assertThat(((Number) row.get("attempts")).intValue()).isGreaterThanOrEqualTo(4);
        assertThat(row.get("delivered_at")).isNotNull();
        assertThat(meters.counter("seckill.sandbox.deliveries", "outcome", "failed").count()).isGreaterThanOrEqualTo(3);
    }

    @Test
    void withDuplicateRateOneEveryEventArrivesTwiceUnderTheSameId() {
        Payment payment = open(500);
        checkout.pay(payment.paymentRef());

        await().atMost(WAIT).until(() -> RECEIVER.of(payment.paymentRef()).size() >= 4);
        List<Delivery> deliveries = RECEIVER.of(payment.paymentRef());
        Set<String> events = new HashSet<>(deliveries.stream().map(Delivery::eventId).toList());
        assertThat(events).hasSize(2);
        for (String event : events) {
            assertThat(deliveries).filteredOn(d -> d.eventId().equals(event)).as(event).hasSize(2);
        }
        await().atMost(WAIT).until(() -> jdbc.queryForObject("SELECT COUNT(*) FROM sandbox_delivery "
                + "WHERE payment_ref = ? AND due_at IS NULL AND delivered_at IS NOT NULL", Integer.class,
                payment.paymentRef()) == 2);
        assertThat(RECEIVER.of(payment.paymentRef())).as("and no more").hasSize(4);
        assertThat(meters.counter("seckill.sandbox.deliveries", "outcome", "duplicated").count()).isGreaterThanOrEqualTo(2);
    }

    @Test
    void outOfOrderThePaymentSucceededArrivesBeforeItWasProcessing() {
        Payment payment = open(700);
        checkout.pay(payment.paymentRef());

        await().atMost(WAIT).until(() -> RECEIVER.of(payment.paymentRef()).size() >= 2);
        List<String> types = RECEIVER.of(payment.paymentRef()).stream().map(Delivery::type).toList();
        assertThat(types.indexOf("payment.succeeded")).isLessThan(types.indexOf("payment.processing")).isZero();
    }

    @Test
    void twoDeliverersClaimingAtOnceNeverTakeTheSameRow() throws Exception {
        // this context's own deliverer would take some of them: two claimers of the test's own stand for two instances
        deliverer.stop();
        String ref = "pay_claimtest" + System.nanoTime();
        int rows = 30;
        try {
            for (int i = 0; i < rows; i++) {
                jdbc.update("INSERT INTO sandbox_delivery (event_id, payment_ref, type, body, due_at, attempts, created_at) "
                        + "VALUES (?, ?, 'payment.succeeded', '{}', UTC_TIMESTAMP(3), 0, UTC_TIMESTAMP(3))",
                        "evt_claim_" + ref + "_" + i, ref);
            }
            CyclicBarrier start = new CyclicBarrier(2);
            List<CompletableFuture<List<String>>> claims = new ArrayList<>();
            for (int t = 0; t < 2; t++) {
                claims.add(CompletableFuture.supplyAsync(() -> {
                    List<String> mine = new ArrayList<>();
                    try {
                        start.await(10, TimeUnit.SECONDS);
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                    List<DeliveryQueue.Claimed> batch;
                    do {
                        batch = queue.claim(4, WebhookDeliverer.LEASE);
                        batch.stream().map(DeliveryQueue.Claimed::eventId).filter(id -> id.contains(ref)).forEach(mine::add);
                    } while (!batch.isEmpty());
                    return mine;
                }));
            }
            List<String> first = claims.get(0).get(30, TimeUnit.SECONDS);
            List<String> second = claims.get(1).get(30, TimeUnit.SECONDS);
            Set<String> both = new HashSet<>(first);
            both.retainAll(second);
            assertThat(both).as("claimed by both").isEmpty();
            assertThat(first.size() + second.size()).isEqualTo(rows);
            assertThat(queue.claim(4, WebhookDeliverer.LEASE)).as("all leased").isEmpty();
            System.out.printf("two claimers: %d and %d rows%n", first.size(), second.size());
        } finally {
            jdbc.update("DELETE FROM sandbox_delivery WHERE payment_ref = ?", ref);
            deliverer.start();
        }
    }

    private static WebhookReceiver receiver() {
        try {
            return new WebhookReceiver(TestServers.WEBHOOK_SECRET);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Dropped and made again: no notification left from an earlier run is posted to this run's receiver. */
    private static void freshDatabase(String url, Map<String, String> servers) throws SQLException, IOException {
        try (Connection db = DriverManager.getConnection(url, servers.get("spring.datasource.username"),
                servers.get("spring.datasource.password")); Statement sql = db.createStatement()) {
            String database = "`" + db.getCatalog() + "`";
            sql.execute("DROP DATABASE " + database);
            sql.execute("CREATE DATABASE " + database);
            sql.execute("USE " + database);
            // the sandbox module's own migrations, in order
            for (String file : List.of("V6__sandbox_payment.sql", "V13__sandbox_payment_idempotency.sql")) {
                String migration = Files.readString(Path.of("db/migration", file)).replaceAll("(?m)^\\s*--.*$", "");
                // a statement ends with the line: a column's comment may hold a semicolon too
                for (String statement : migration.split("(?m);\\s*$")) {
                    if (!statement.isBlank()) {
                        sql.execute(statement);
                    }
                }
            }
        }
    }
}
