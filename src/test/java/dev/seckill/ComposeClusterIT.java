package dev.seckill;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import dev.seckill.support.Api;
import dev.seckill.support.PacedBurst;
import dev.seckill.support.RawHttp;
import dev.seckill.support.TestServers;
import dev.seckill.support.Tokens;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The cluster in containers, end to end, as its users run it: {@code scripts/cluster up} (the jar, the images, compose),
 * then sales through its Nginx on 127.0.0.1:8080, each a burst of shoppers for fewer units with a real fault early in
 * it, while units are still on sale. Afterwards the audit must say consistent, and the clients must agree with it:
 * every shopper told 202 has an order, none has two, no more orders than units. Then {@code down -v}, whatever
 * happened. Not in {@code ./mvnw verify}: it needs the cluster's own ports and minutes; CI runs it with
 * {@code SECKILL_COMPOSE_TEST=1}, and {@code SECKILL_COMPOSE_TEST=cluster} adds the Redis Cluster (a down, an up and
 * a sale more).
 */
@EnabledIfEnvironmentVariable(named = "SECKILL_COMPOSE_TEST", matches = "1|cluster",
        disabledReason = "runs the cluster on its own ports: SECKILL_COMPOSE_TEST=1 (as CI does)")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ComposeClusterIT {

    static final String PROJECT = "seckill-compose-test";
    static final int NGINX = 8080;
    static final int SHOPPERS = 300;
    static final int STOCK = 100;

    final Api api = new Api(NGINX);

    @BeforeAll
    static void up() {
        cluster(Map.of(), "down", "-v");
        cluster(Map.of(), "up");
    }

    @AfterAll
    static void down() {
        cluster(Map.of(), "down", "-v");
    }

    /**
     * Nginx sees each client's own address on the published port: another address of this machine is limited, the
     * load tools' 127.0.0.1 is not. Through a port Docker publishes itself, every client would come from one
     * address of Docker's proxy, and either all or none would be limited.
     */
    @Test
    @Order(0)
    void thePerAddressLimitsCountEachClientsOwnAddress() throws Exception {
        long voucher = api.createVoucher(1);
        Map<Integer, Integer> fromAnother = burst("127.0.0.2", "GET /vouchers/" + voucher, 300);
        assertThat(fromAnother.getOrDefault(429, 0)).as("answers to 127.0.0.2: %s", fromAnother).isGreaterThanOrEqualTo(100);
        Map<Integer, Integer> fromLoadTools = burst("127.0.0.1", "GET /vouchers/" + voucher, 300);
        assertThat(fromLoadTools).as("answers to 127.0.0.1").containsOnlyKeys(200);
    }

    /** {@code requests} sent from {@code from} through Nginx, 32 at a time: how many got each status. */
    private static Map<Integer, Integer> burst(String from, String requestLine, int requests) throws Exception {
        Map<Integer, Integer> statuses = new ConcurrentHashMap<>();
        ExecutorService clients = Executors.newFixedThreadPool(32);
        try {
            List<Future<?>> sent = new ArrayList<>();
            for (int i = 0; i < requests; i++) {
                sent.add(clients.submit(() -> statuses.merge(RawHttp.send(from, NGINX, requestLine, null).status(), 1, Integer::sum)));
            }
            for (Future<?> answer : sent) {
                answer.get();
            }
        } finally {
            clients.shutdown();
        }
        return statuses;
    }

    @Test
    @Order(1)
    void oneRedisAndAnInstanceKilledMidBurstLosesNothingAndOversellsNothing() throws Exception {
        String app1 = container("app1");
        sale("app1 killed -9", () -> docker("kill", "-s", "KILL", app1), () -> cluster(Map.of(), "up"));
    }

    /**
     * A switch to the sync path right after a sale on the async path and an instance killed -9: both instances are
     * recreated at once, and the burst that follows (1,000 shoppers twice each for 100 units, as fast as 32 clients
     * send) must sell every unit, through Nginx, with no 5xx but the sale's own 503s (each of which gives its unit
     * back). While both restarted, Nginx marked both down, and let one request at a time try each again while every
     * other got 502 at once. {@code SECKILL_COMPOSE_SWITCHES} repeats it, switching back to async in between (1).
     */
    @Test
    @Order(2)
    void aSwitchToTheSyncPathAfterASaleSellsEveryUnitWithNoFiveHundredFromNginx() throws Exception {
        int switches = Integer.parseInt(System.getenv().getOrDefault("SECKILL_COMPOSE_SWITCHES", "1"));
        for (int round = 1; round <= switches; round++) {
            if (round > 1) {
                cluster(Map.of(), "up");
            }
            long asyncVoucher = api.createVoucher(STOCK);
            PacedBurst.run(NGINX, asyncVoucher, api.mintShoppers(SHOPPERS), Duration.ofSeconds(2), 16, List.of());
            docker("kill", "-s", "KILL", container("app2"));
            cluster(Map.of("SECKILL_MODE", "sync"), "up");

            long voucher = api.createVoucher(STOCK);
            List<String> shoppers = api.mintShoppers(1000);
            List<String> twice = new ArrayList<>(shoppers);
            twice.addAll(shoppers);
            Collections.shuffle(twice);
            PacedBurst.Result burst = PacedBurst.run(NGINX, voucher, twice, Duration.ofSeconds(1), 32, List.of());
            JsonNode audit = api.awaitNoPendingOrders(voucher, Duration.ofMinutes(1));
            System.out.printf("[compose] switch %d/%d to sync: %s; audit %s%n", round, switches, burst.answers(), audit);
            assertThat(burst.answers().keySet()).as("no 5xx but the sale's own 503s")
                    .allMatch(answer -> !answer.matches("5\\d\\d .*|no answer") || answer.matches("503 (voucher-busy|backend-unavailable)"));
            assertThat(audit.path("orders").asInt()).as("every unit sold: %s", audit).isEqualTo(STOCK);
            assertThat(audit.path("consistent").asBoolean()).as("the audit: %s", audit).isTrue();
        }
    }

    @Test
    @Order(3)
    void withSentinelsTheMasterKilledMidBurstLosesNothingAndOversellsNothing() throws Exception {
        cluster(Map.of("SECKILL_REDIS_HA", "sentinel"), "up");
        String master = container(cluster(Map.of("SECKILL_REDIS_HA", "sentinel"), "redis-master").strip());
        sale("the Sentinels' master killed -9", () -> docker("kill", "-s", "KILL", master),
                () -> cluster(Map.of("SECKILL_REDIS_HA", "sentinel"), "redis-start"));
    }

    @Test
    @Order(4)
    @EnabledIfEnvironmentVariable(named = "SECKILL_COMPOSE_TEST", matches = "cluster")
    void onARedisClusterTheMasterOfTheVouchersSlotKilledMidBurstLosesNothing() throws Exception {
        Map<String, String> redisCluster = Map.of("SECKILL_REDIS_HA", "cluster");
        cluster(Map.of(), "down");
        cluster(redisCluster, "up");
        sale("the master of the voucher's slot killed -9", voucher -> {
            String master = container(cluster(redisCluster, "redis-master", Long.toString(voucher)).strip());
            return () -> docker("kill", "-s", "KILL", master);
        }, () -> cluster(redisCluster, "redis-start"));
    }

    private void sale(String fault, PacedBurst.ThrowingRunnable breaking, Runnable recovery) throws Exception {
        sale(fault, voucher -> breaking, recovery);
    }

    /** A voucher, a burst with {@code fault} (aimed once the voucher exists) half a second in, the recovery, the checks. */
    private void sale(String fault, FaultFor faultFor, Runnable recovery) throws Exception {
        long voucher = api.createVoucher(STOCK);
        List<String> tokens = api.mintShoppers(SHOPPERS);
        PacedBurst.Result burst = PacedBurst.run(NGINX, voucher, tokens, Duration.ofSeconds(6), 16,
                List.of(new PacedBurst.Fault(Duration.ofMillis(500), fault, faultFor.aimedAt(voucher))));
        recovery.run();
        JsonNode audit = api.awaitNoPendingOrders(voucher, Duration.ofMinutes(3));

        Set<Long> bought = new HashSet<>();
        for (String token : tokens) {
            Api.Response order = api.get("/orders?voucherId=" + voucher, "Authorization", "Bearer " + token);
            if (order.status() == 200 && order.json().path("orderId").asLong() > 0) {
                bought.add(Tokens.shopperId(token));
            }
        }
        System.out.printf("[compose] %s: %s; %d orders of %d units; audit %s%n", fault, burst.answers(), bought.size(),
                STOCK, audit);
        assertThat(audit.path("consistent").asBoolean()).as("the audit: %s", audit).isTrue();
        assertThat(burst.accepted()).as("shoppers told 202").isNotEmpty();
        assertThat(bought).as("every shopper told 202 has an order").containsAll(burst.accepted());
        assertThat(bought.size()).as("orders for %d units", STOCK).isLessThanOrEqualTo(STOCK)
                .isEqualTo(audit.path("orders").asInt());
        assertThat(audit.path("duplicateBuyers").asLong()).isZero();
        assertThat(audit.path("oversold").asLong()).isZero();
        assertThat(burst.answers().keySet()).as("every answer an acceptance, a refusal the sale gives, or none")
                .allMatch(answer -> answer.matches("20[12] .*|409 .*|5\\d\\d .*|no answer"));
    }

    interface FaultFor {
        PacedBurst.ThrowingRunnable aimedAt(long voucher) throws Exception;
    }

    /** scripts/cluster with the test's project, files and admin login, its output shown; what it printed, if it passed. */
    private static String cluster(Map<String, String> settings, String... command) {
        ProcessBuilder builder = new ProcessBuilder(concat("scripts/cluster", command)).redirectErrorStream(true);
        Map<String, String> env = builder.environment();
        env.keySet().removeIf(name -> name.startsWith("SECKILL_") || name.equals("COMPOSE_PROFILES"));
        env.put("COMPOSE_PROJECT_NAME", PROJECT);
        env.put("SECKILL_RUN_DIR", ".run/compose-test");
        env.put("SECKILL_ADMIN_USER", TestServers.ADMIN_USER);
        env.put("SECKILL_ADMIN_PASSWORD", TestServers.ADMIN_PASSWORD);
        env.putAll(settings);
        System.out.printf("[compose] scripts/cluster %s%n", String.join(" ", command));
        return run(builder, Duration.ofMinutes(15), true).lines().reduce((first, last) -> last).orElse("");
    }

    private static String container(String service) {
        String id = docker("ps", "-aq", "--filter", "label=com.docker.compose.project=" + PROJECT,
                "--filter", "label=com.docker.compose.service=" + service).strip();
        assertThat(id).as("the container of %s", service).isNotEmpty();
        return id;
    }

    private static String docker(String... command) {
        return run(new ProcessBuilder(concat("docker", command)).redirectErrorStream(true), Duration.ofMinutes(1), false);
    }

    /** The command's output, shown line by line as it comes when {@code shown} (an up takes minutes). */
    private static String run(ProcessBuilder builder, Duration timeout, boolean shown) {
        try {
            Process process = builder.start();
            process.getOutputStream().close();
            StringBuilder output = new StringBuilder();
            try (BufferedReader lines = process.inputReader(StandardCharsets.UTF_8)) {
                for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                    output.append(line).append('\n');
                    if (shown) {
                        System.out.println("  " + line);
                    }
                }
            }
            if (!process.waitFor(timeout.toSeconds(), TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
            assertThat(process.exitValue()).as("%s:%n%s", builder.command(), output).isZero();
            return output.toString();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static String[] concat(String first, String... rest) {
        String[] all = new String[rest.length + 1];
        all[0] = first;
        System.arraycopy(rest, 0, all, 1, rest.length);
        return all;
    }
}
