package dev.seckill.chaos;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import dev.seckill.support.Api;
import dev.seckill.support.AppProcess;
import dev.seckill.support.PacedBurst;
import dev.seckill.support.RedisServer;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Chaos scenarios 1 and 7: the durability promise under real Redis faults, from outside, on a
 * {@link ChaosCluster} (its Redis with AOF and {@code appendfsync always}, as {@code scripts/cluster} runs
 * it). A paced burst counts every 202 per shopper; then the backlog drains and MySQL is compared with what
 * the clients were told.
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

    static ChaosCluster cluster;
    static Api api;

    @BeforeAll
    static void start() throws Exception {
        cluster = ChaosCluster.named("chaos-redis", "seckill_chaos").start();
        api = cluster.api();
    }

    @AfterAll
    static void stop() throws Exception {
        if (cluster != null) {
            cluster.close();
        }
    }

    /**
     * The admin side counts failed logins in Redis before it checks a password: with Redis gone it answered the
     * servlet container's bare 500 (Spring Boot's error JSON, no problem code). It must say what any outage says,
     * and let nobody in unpriced.
     */
    @Test
    void theAdminSideAnswersBackendUnavailableWhileRedisIsDown() throws Exception {
        long voucherId = api.createVoucher(10);
        String audit = "/admin/vouchers/" + voucherId + "/audit";
        api.asAdmin("GET", audit, null).expectStatus(200);

        RedisServer redis = cluster.redis();
        redis.kill();
        try {
            api.asAdmin("GET", audit, null).expectProblem(503, "backend-unavailable");
            api.get(audit, "Authorization", "Basic YWRtaW46d3Jvbmc=").expectProblem(503, "backend-unavailable");
        } finally {
            redis.restart();
        }
        Awaitility.await("the admin side back with Redis").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(500))
                .until(() -> api.asAdmin("GET", audit, null).status() == 200);
    }

    @Test
    void redisKilledMidBurstAndRestartedFromItsAofLosesAndDoublesNothing() throws Exception {
        long voucherId = api.createVoucher(100_000);
        List<String> tokens = api.mintShoppers(SHOPPERS);

        RedisServer redis = cluster.redis();
        String runBefore = redis.runId();

        PacedBurst.Result burst = PacedBurst.run(cluster.nginx().port(), voucherId, tokens, BURST, 32, List.of(
                new PacedBurst.Fault(Duration.ofSeconds(2), "kill -9 redis", redis::kill),
                new PacedBurst.Fault(Duration.ofSeconds(3), "redis starts again from its AOF", redis::restart)));

        assertThat(redis.runId()).as("a new Redis process, loaded from the AOF").isNotEqualTo(runBefore);
        // order-unconfirmed: a purchase in flight when Redis died, every retry failed, so it cannot know (unknown).
        assertThat(burst.answers().keySet()).as("only orders and outage answers")
                .isSubsetOf("202 accepted", "409 already-ordered", "503 backend-unavailable", "503 order-unconfirmed");
        assertThat(burst.accepted().size()).as("orders were accepted before and after it").isGreaterThan(SHOPPERS / 3);
        long drainStart = System.nanoTime();
        JsonNode audit = api.awaitNoPendingOrders(voucherId, Duration.ofSeconds(60));

        Map<Long, Integer> orders = ChaosReport.orderCounts(cluster.dbUrl(), voucherId);
        ChaosReport.print("1. Redis kill -9 mid-burst, restarted from its AOF (appendfsync always)", burst,
                orders.keySet(), audit, drainStart);
        assertThat(audit.path("redisDataLost").asBoolean()).as("nothing was lost, so none is reported").isFalse();
        ChaosReport.assertNothingLostOrDoubled(burst, orders, audit);
    }

    @Test
    void redisFlushedMidBurstIsReportedAsALossNeverAsConsistent() throws Exception {
        long voucherId = api.createVoucher(100_000);
        List<String> tokens = api.mintShoppers(SHOPPERS);

        double countedBefore = lossesCounted();
        ChaosCluster.LogMark logMark = cluster.logMark();

        PacedBurst.Result burst = PacedBurst.run(cluster.nginx().port(), voucherId, tokens, BURST, 32, List.of(
                new PacedBurst.Fault(Duration.ofSeconds(2), "FLUSHALL", () -> cluster.redis().cli("flushall"))));

        assertThat(burst.accepted()).isNotEmpty();
        long drainStart = System.nanoTime();
        JsonNode audit = api.awaitNoPendingOrders(voucherId, Duration.ofSeconds(60));
        ChaosReport.print("7. Redis FLUSHALL mid-burst", burst, ChaosReport.buyers(cluster.dbUrl(), voucherId), audit,
                drainStart);
        assertThat(audit.path("redisDataLost").asBoolean()).as("%s", audit).isTrue();
        assertThat(audit.path("consistent").asBoolean()).isFalse();
        assertThat(cluster.logSince(logMark)).contains("Redis lost its data");
        assertThat(lossesCounted()).as("seckill.redis.data.losses, both instances together").isEqualTo(countedBefore + 1);
    }

    /** The loss counter of both instances together (only the instance that records a loss counts it). */
    private static double lossesCounted() {
        double sum = 0;
        for (AppProcess instance : List.of(cluster.instance(1), cluster.instance(2))) {
            Api.Response metric = new Api(instance.port()).asAdmin("GET", "/actuator/metrics/seckill.redis.data.losses", null);
            sum += metric.expectStatus(200).json().path("measurements").get(0).path("value").asDouble();
        }
        return sum;
    }
}
