package dev.seckill.chaos;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.seckill.support.Api;
import dev.seckill.support.AppProcess;
import dev.seckill.support.Nginx;
import dev.seckill.support.PacedBurst;
import dev.seckill.support.RedisServer;
import dev.seckill.support.TestServers;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The durability promise under real Redis faults, from outside: two instances (packaged jars in JVMs of
 * their own) behind the repository's Nginx rules, on a Redis of this test's own with AOF and
 * {@code appendfsync always}, as {@code scripts/cluster} runs it, and a database of their own (a
 * deployment is one Redis data set with one database: the epoch marker ties them together). A paced burst counts every 202 per
 * shopper; then the backlog drains and MySQL is compared with what the clients were told.
 * <ul>
 *   <li>Redis killed -9 mid-burst and started again from its AOF: every accepted order is in MySQL once,
 *       nothing oversold, Redis and MySQL agree, and no loss is reported (there was none).</li>
 *   <li>Redis flushed mid-burst (what a restart without persistence does): the loss is reported by the
 *       audit and the log, never called consistent.</li>
 * </ul>
 */
@Timeout(value = 5, unit = java.util.concurrent.TimeUnit.MINUTES)
class RedisChaosIT {

    static final int SHOPPERS = 1_200;
    static final Duration BURST = Duration.ofSeconds(6);

    static final String DB_URL = TestServers.properties().get("spring.datasource.url")
            .replace("/seckill_test", "/seckill_chaos");

    static RedisServer redis;
    static AppProcess first;
    static AppProcess second;
    static Nginx nginx;
    static Api api;

    @BeforeAll
    static void cluster() throws Exception {
        redis = RedisServer.start("always");
        Map<String, String> own = Map.of("spring.data.redis.port", Integer.toString(redis.port()),
                "spring.data.redis.database", "0", "spring.datasource.url", DB_URL);
        first = AppProcess.start("chaos-redis-1", own, "--seckill.mode=async");
        second = AppProcess.start("chaos-redis-2", own, "--seckill.mode=async");
        nginx = Nginx.start(List.of(first.port(), second.port()), "");
        api = new Api(nginx.port());
    }

    @AfterAll
    static void stop() throws Exception {
        if (nginx != null) {
            nginx.close();
        }
        for (AutoCloseable closing : new AutoCloseable[] {first, second, redis}) {
            if (closing != null) {
                closing.close();
            }
        }
    }

    @Test
    void redisKilledMidBurstAndRestartedFromItsAofLosesAndDoublesNothing() throws Exception {
        long voucherId = api.createVoucher(100_000);
        List<String> tokens = api.mintShoppers(SHOPPERS);

        String runBefore = redis.runId();

        PacedBurst.Result burst = PacedBurst.run(nginx.port(), voucherId, tokens, BURST, 32, List.of(
                new PacedBurst.Fault(Duration.ofSeconds(2), "kill -9 redis", redis::kill),
                new PacedBurst.Fault(Duration.ofSeconds(3), "redis starts again from its AOF", redis::restart)));

        assertThat(redis.runId()).as("a new Redis process, loaded from the AOF").isNotEqualTo(runBefore);
        assertThat(burst.answers().keySet()).as("only orders and outage answers")
                .isSubsetOf("202 accepted", "409 already-ordered", "503 backend-unavailable");
        assertThat(burst.accepted().size()).as("orders were accepted before and after it").isGreaterThan(SHOPPERS / 3);
        long drainStart = System.nanoTime();
        JsonNode audit = api.awaitNoPendingOrders(voucherId, Duration.ofSeconds(60));

        Set<Long> inMySql = ChaosReport.buyers(DB_URL, voucherId);
        ChaosReport.print("Redis kill -9 mid-burst, restarted from its AOF (appendfsync always)", burst, inMySql, audit, drainStart);
        assertThat(inMySql).as("every accepted order is in MySQL").containsAll(burst.accepted());
        Set<Long> unexplained = new HashSet<>(inMySql);
        unexplained.removeAll(burst.accepted());
        unexplained.removeAll(burst.unknown());
        assertThat(unexplained).as("orders of shoppers who were told no").isEmpty();
        assertThat(audit.path("duplicateBuyers").asLong()).isZero();
        assertThat(audit.path("oversold").asLong()).isZero();
        assertThat(audit.path("failedOrders").asLong()).as("no order given up").isZero();
        assertThat(audit.path("redisAgrees").asBoolean()).as("Redis and MySQL agree: %s", audit).isTrue();
        assertThat(audit.path("redisDataLost").asBoolean()).as("nothing was lost, so none is reported").isFalse();
        assertThat(audit.path("consistent").asBoolean()).as("%s", audit).isTrue();
    }

    @Test
    void redisFlushedMidBurstIsReportedAsALossNeverAsConsistent() throws Exception {
        long voucherId = api.createVoucher(100_000);
        List<String> tokens = api.mintShoppers(SHOPPERS);

        double countedBefore = lossesCounted();

        PacedBurst.Result burst = PacedBurst.run(nginx.port(), voucherId, tokens, BURST, 32, List.of(
                new PacedBurst.Fault(Duration.ofSeconds(2), "FLUSHALL", () -> redis.cli("flushall"))));

        assertThat(burst.accepted()).isNotEmpty();
        long drainStart = System.nanoTime();
        JsonNode audit = api.awaitNoPendingOrders(voucherId, Duration.ofSeconds(60));
        ChaosReport.print("Redis FLUSHALL mid-burst", burst, ChaosReport.buyers(DB_URL, voucherId), audit, drainStart);
        assertThat(audit.path("redisDataLost").asBoolean()).as("%s", audit).isTrue();
        assertThat(audit.path("consistent").asBoolean()).isFalse();
        String logs = Files.readString(Path.of("target/chaos-redis-1.log")) + Files.readString(Path.of("target/chaos-redis-2.log"));
        assertThat(logs).contains("Redis lost its data");
        assertThat(lossesCounted()).as("seckill.redis.data.losses, both instances together").isEqualTo(countedBefore + 1);
    }

    /** The loss counter of both instances together (only the instance that records a loss counts it). */
    private static double lossesCounted() {
        double sum = 0;
        for (AppProcess instance : List.of(first, second)) {
            Api.Response metric = new Api(instance.port()).asAdmin("GET", "/actuator/metrics/seckill.redis.data.losses", null);
            sum += metric.expectStatus(200).json().path("measurements").get(0).path("value").asDouble();
        }
        return sum;
    }
}
