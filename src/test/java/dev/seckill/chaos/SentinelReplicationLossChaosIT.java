package dev.seckill.chaos;

import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import dev.seckill.support.RedisSentinels;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Chaos scenario 11: scenario 10 (the Sentinel-managed master paused past its failover, then resumed as a stale
 * master) without the replica wait ({@code wait-replicas=0}, the product's default): a 202 says only that a master
 * took the order, and a stale one may take orders the Sentinels then discard when they turn it into a replica. (The
 * master killed -9 instead lost nothing here: a killed process's sockets still deliver what it wrote, so the
 * replicas had every order it answered.) The loss is measured from the clients' side (accepted, not in MySQL) and
 * must never be hidden: with any order lost the audit may not say consistent, and the failover is on record whether
 * or not it lost anything. A run that loses nothing says "lost 0" in its row; it does not fail.
 */
@Timeout(value = 6, unit = TimeUnit.MINUTES)
@RunByScriptsChaos
class SentinelReplicationLossChaosIT {

    @Test
    void staleMasterWithoutTheReplicaWaitHasItsLossMeasuredAndNeverCalledConsistent() throws Exception {
        try (ChaosCluster cluster = ChaosCluster.named("chaos-nowait", "seckill_chaos_nowait").sentinels()
                .waitReplicas(0).start()) {
            RedisSentinels redis = cluster.sentinels();
            int master = redis.masterPort();
            FailoverBurst.Outcome outcome = FailoverBurst.run(cluster, SentinelFailoverChaosIT.STOCK,
                    SentinelFailoverChaosIT.SHOPPERS, SentinelFailoverChaosIT.SPLIT_BRAIN_BURST,
                    FailoverBurst.splitBrain(redis, master, SentinelFailoverChaosIT.FAULT_AT));

            outcome.print("11. Redis master paused past a Sentinel failover, resumed stale, no replica wait (WAIT 0)");
            outcome.assertOnlyAllowedAnswers();
            long lost = ChaosReport.lost(outcome.burst(), outcome.orders().keySet(), Set.of());
            System.out.printf("[burst] accepted %d, of them not in MySQL %d%n", outcome.burst().accepted().size(), lost);
            assertThat(outcome.orders()).as("one order per shopper").allSatisfy((shopper, count) -> assertThat(count).isOne());
            assertThat(outcome.audit().path("oversold").asLong()).as("oversold: %s", outcome.audit()).isZero();
            assertThat(outcome.orders()).as("orders in MySQL, at most the stock")
                    .hasSizeLessThanOrEqualTo(SentinelFailoverChaosIT.STOCK);
            if (lost > 0) {
                assertThat(outcome.audit().path("consistent").asBoolean())
                        .as("%d accepted orders lost, yet the audit says consistent: %s", lost, outcome.audit()).isFalse();
            }
            outcome.facts().assertReported();
        }
    }
}
