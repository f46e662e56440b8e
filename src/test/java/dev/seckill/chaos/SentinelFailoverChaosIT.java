package dev.seckill.chaos;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import dev.seckill.support.PacedBurst;
import dev.seckill.support.RedisSentinels;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Chaos scenarios 9 and 10: a Sentinel failover mid-burst, on a {@link ChaosCluster} whose Redis is a master, two
 * replicas and three Sentinels, the instances answering 202 only once a replica has the order
 * ({@code wait-replicas=1}). The voucher has less stock than there are shoppers, so an oversell would show. The
 * clients' 202s are compared with MySQL per shopper once the backlog drained; a shopper answered
 * {@code order-unconfirmed} is neither accepted nor lost (counted in the row's note).
 * <ul>
 *   <li>9: the master killed -9; a replica is promoted (in {@code ./mvnw verify});</li>
 *   <li>10: the master paused (docker pause) until the Sentinels promoted a replica, then resumed: for a moment two masters
 *       (split brain) until the Sentinels turn the old one into a replica of the new, discarding what it took
 *       meanwhile.</li>
 * </ul>
 */
// In the full suite (-Pchaos, over 2 min a scenario): in ./mvnw verify, FailoverReplayIT and RedisFailoversDataJpaIT
// play a failover's replay and its accounting against real Redis servers.
@RunByScriptsChaos
@Timeout(value = 6, unit = TimeUnit.MINUTES)
class SentinelFailoverChaosIT {

    static final int SHOPPERS = 1_200;
    static final int STOCK = 900;
    static final Duration BURST = Duration.ofSeconds(8);
    static final Duration FAULT_AT = Duration.ofMillis(2_500);
    static final Duration SPLIT_BRAIN_BURST = Duration.ofSeconds(12);

    @Test
    void masterKilledMidBurstIsFailedOverLosingDoublingAndOversellingNothing() throws Exception {
        try (ChaosCluster cluster = ChaosCluster.named("chaos-sentinel", "seckill_chaos_sentinel").sentinels().start()) {
            RedisSentinels redis = cluster.sentinels();
            int master = redis.masterPort();
            FailoverBurst.Outcome outcome = FailoverBurst.run(cluster, STOCK, SHOPPERS, BURST, List.of(
                    new PacedBurst.Fault(FAULT_AT, "kill -9 the Redis master :" + master, () -> redis.kill(master)),
                    new PacedBurst.Fault(FAULT_AT, "await the Sentinels' failover",
                            () -> FailoverBurst.awaitFailover(redis, master))));

            outcome.print("9. Redis master kill -9 mid-burst, Sentinel failover (WAIT 1)");
            outcome.assertOnlyAllowedAnswers();
            ChaosReport.assertNothingLostOrDoubled(outcome.burst(), outcome.orders(), outcome.audit());
            assertThat(outcome.orders()).as("orders in MySQL, at most the stock").hasSizeLessThanOrEqualTo(STOCK);
            outcome.facts().assertReported();
        }
    }

    @Test
    @RunByScriptsChaos
    void masterPausedPastItsFailoverThenResumedAsAStaleMasterLosesAndDoublesNothing() throws Exception {
        try (ChaosCluster cluster = ChaosCluster.named("chaos-split", "seckill_chaos_split").sentinels().start()) {
            RedisSentinels redis = cluster.sentinels();
            int master = redis.masterPort();
            FailoverBurst.Outcome outcome = FailoverBurst.run(cluster, STOCK, SHOPPERS, SPLIT_BRAIN_BURST,
                    FailoverBurst.splitBrain(redis, master, FAULT_AT));

            outcome.print("10. Redis master paused past a Sentinel failover, resumed stale (WAIT 1)");
            outcome.assertOnlyAllowedAnswers();
            ChaosReport.assertNothingLostOrDoubled(outcome.burst(), outcome.orders(), outcome.audit());
            assertThat(outcome.orders()).as("orders in MySQL, at most the stock").hasSizeLessThanOrEqualTo(STOCK);
            outcome.facts().assertReported();
        }
    }
}
