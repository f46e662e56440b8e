package dev.seckill.chaos;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import dev.seckill.support.PacedBurst;
import dev.seckill.support.RedisCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Chaos scenario 12: on a six-node Redis Cluster (three masters, a replica each), the master serving the voucher's
 * slot killed -9 mid-burst; after {@code cluster-node-timeout} (5 s) its replica takes over, then the killed node is
 * started again from its AOF and joins as the new master's replica. The instances answer 202 only once a replica
 * has the order ({@code wait-replicas=1}): while the promoted master has no replica yet, orders are taken but
 * answered {@code order-unconfirmed}. Every 202 must be in MySQL once, nothing oversold.
 */
@Timeout(value = 6, unit = TimeUnit.MINUTES)
@RunByScriptsChaos
class RedisClusterFailoverChaosIT {

    static final int SHOPPERS = 1_600;
    static final int STOCK = 1_200;

    @Test
    void slotMasterKilledMidBurstIsReplacedByItsReplicaLosingDoublingAndOversellingNothing() throws Exception {
        try (ChaosCluster cluster = ChaosCluster.named("chaos-rcluster", "seckill_chaos_rcluster").redisCluster().start()) {
            RedisCluster redis = cluster.redisCluster();
            AtomicInteger killed = new AtomicInteger();
            FailoverBurst.Outcome outcome = FailoverBurst.runOnNextVoucher(cluster, STOCK, SHOPPERS, Duration.ofSeconds(16),
                    voucherId -> {
                        String stockKey = "seckill:{" + voucherId + "}:stock";
                        return List.of(
                                new PacedBurst.Fault(Duration.ofMillis(2_500), "kill -9 the master of " + stockKey, () -> {
                                    killed.set(redis.masterOf(stockKey));
                                    redis.kill(killed.get());
                                    System.out.printf("[burst] killed :%d%n", killed.get());
                                }),
                                new PacedBurst.Fault(Duration.ofMillis(2_500), "await its replica's takeover", () -> {
                                    long start = System.nanoTime();
                                    int promoted = redis.awaitMasterOf(stockKey, killed.get(), Duration.ofSeconds(60));
                                    System.out.printf("[burst] :%d serves %s, %.1f s after the kill%n", promoted, stockKey,
                                            (System.nanoTime() - start) / 1e9);
                                }),
                                new PacedBurst.Fault(Duration.ofMillis(2_500), "start the killed node again (a replica now)",
                                        redis::startStopped));
                    });

            outcome.print("12. Redis Cluster: a slot's master kill -9 mid-burst, its replica promoted (WAIT 1)");
            outcome.assertOnlyAllowedAnswers();
            ChaosReport.assertNothingLostOrDoubled(outcome.burst(), outcome.orders(), outcome.audit());
            assertThat(outcome.orders()).as("orders in MySQL, at most the stock").hasSizeLessThanOrEqualTo(STOCK);
            outcome.facts().assertReported();
        }
    }
}
