package dev.seckill.chaos;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import dev.seckill.support.PacedBurst;
import dev.seckill.support.RedisSentinels;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Chaos scenario 13: the sync path (201 once the order is committed in MySQL) through a Sentinel failover, the
 * master killed -9 mid-burst. The Redis side of an order (its unit, its record) may not have reached the promoted
 * replica; MySQL's own guards (one order per shopper, stock never below zero) must still hold: nothing oversold,
 * nobody with two orders, every shopper told 201 has an order in MySQL, and nobody told no has one. Besides the
 * answers of the async scenarios, a shopper may be told 503 {@code voucher-busy}: orders of one voucher take its
 * lock one at a time, and one that waited {@code voucher-wait} for it is refused, nothing taken.
 */
@Timeout(value = 6, unit = TimeUnit.MINUTES)
@RunByScriptsChaos
class SyncSentinelFailoverChaosIT {

    @Test
    void masterKilledMidBurstOnTheSyncPathOversellsAndDoublesNothing() throws Exception {
        try (ChaosCluster cluster = ChaosCluster.named("chaos-sync-sentinel", "seckill_chaos_sync_sentinel").mode("sync")
                .sentinels().start()) {
            RedisSentinels redis = cluster.sentinels();
            int master = redis.masterPort();
            FailoverBurst.Outcome outcome = FailoverBurst.run(cluster, SentinelFailoverChaosIT.STOCK,
                    SentinelFailoverChaosIT.SHOPPERS, SentinelFailoverChaosIT.BURST, List.of(
                            new PacedBurst.Fault(SentinelFailoverChaosIT.FAULT_AT, "kill -9 the Redis master :" + master,
                                    () -> redis.kill(master)),
                            new PacedBurst.Fault(SentinelFailoverChaosIT.FAULT_AT, "await the Sentinels' failover",
                                    () -> FailoverBurst.awaitFailover(redis, master))));

            outcome.print("13. sync path: Redis master kill -9 mid-burst, Sentinel failover");
            // the sync path's orders of a voucher queue for its lock: one that waited voucher-wait answers voucher-busy
            outcome.assertOnlyAllowedAnswers("503 voucher-busy");
            PacedBurst.Result burst = outcome.burst();
            assertThat(outcome.orders().keySet()).as("every shopper told 201 has an order in MySQL")
                    .containsAll(burst.accepted());
            assertThat(outcome.orders()).as("one order per shopper").allSatisfy((shopper, count) -> assertThat(count).isOne());
            Set<Long> unexplained = new HashSet<>(outcome.orders().keySet());
            unexplained.removeAll(burst.accepted());
            unexplained.removeAll(burst.unknown());
            assertThat(unexplained).as("orders of shoppers who were told no").isEmpty();
            assertThat(outcome.orders()).as("orders in MySQL, at most the stock")
                    .hasSizeLessThanOrEqualTo(SentinelFailoverChaosIT.STOCK);
            assertThat(outcome.audit().path("oversold").asLong()).as("oversold: %s", outcome.audit()).isZero();
            assertThat(outcome.audit().path("duplicateBuyers").asLong()).as("doubled: %s", outcome.audit()).isZero();
            outcome.facts().assertReported();
        }
    }
}
