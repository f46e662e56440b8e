package dev.seckill.chaos;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import dev.seckill.support.PacedBurst;
import dev.seckill.support.RedisSentinels;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The shape every failover scenario shares: a voucher of {@code stock} units, {@code shoppers} new shoppers, a
 * paced burst through Nginx with the scenario's faults, then the backlog drained and everything counted once
 * ({@link Outcome}): MySQL's orders per shopper, the audit, and what the failover left ({@link FailoverFacts}).
 */
final class FailoverBurst {

    /** The answers a failover may give: an order, a refusal, an outage, or an order taken but not confirmed. */
    static final List<String> ALLOWED = List.of("201 created", "202 accepted", "409 already-ordered", "409 sold-out",
            "503 backend-unavailable", "503 order-unconfirmed");

    private FailoverBurst() {
    }

    static Outcome run(ChaosCluster cluster, int stock, int shoppers, Duration duration, List<PacedBurst.Fault> faults)
            throws Exception {
        return runOnNextVoucher(cluster, stock, shoppers, duration, voucherId -> faults);
    }

    /** As {@link #run}, with faults that depend on the voucher (e.g. the Redis Cluster node serving its slot). */
    static Outcome runOnNextVoucher(ChaosCluster cluster, int stock, int shoppers, Duration duration,
            Function<Long, List<PacedBurst.Fault>> faultsOf) throws Exception {
        long voucherId = cluster.api().createVoucher(stock);
        List<PacedBurst.Fault> faults = faultsOf.apply(voucherId);
        List<String> tokens = cluster.api().mintShoppers(shoppers);
        ChaosCluster.LogMark mark = cluster.logMark();
        PacedBurst.Result burst = PacedBurst.run(cluster.nginx().port(), voucherId, tokens, duration, 32, faults);
        long drainStart = System.nanoTime();
        printWaits(burst);
        JsonNode audit = cluster.api().awaitNoPendingOrders(voucherId, Duration.ofSeconds(90));
        Map<Long, Integer> orders = ChaosReport.orderCounts(cluster.dbUrl(), voucherId);
        FailoverFacts facts = FailoverFacts.collect(cluster, mark, burst, orders.keySet(), audit);
        printLost(burst, orders);
        System.out.printf("[burst] audit after the drain: %s%n", audit);
        return new Outcome(voucherId, burst, orders, audit, facts, drainStart);
    }

    /**
     * Split brain: the master paused (docker pause) at {@code at} until the Sentinels promoted a replica, kept stopped one
     * second more (clients' commands pile up on its sockets), resumed as a stale master, and waited for until the
     * Sentinels made it a replica of the new master, discarding what it took meanwhile.
     */
    static List<PacedBurst.Fault> splitBrain(RedisSentinels redis, int master, Duration at) {
        return List.of(
                new PacedBurst.Fault(at, "pause the Redis master :" + master, () -> redis.pause(master)),
                new PacedBurst.Fault(at, "await the Sentinels' failover", () -> {
                    awaitFailover(redis, master);
                    Thread.sleep(1_000);
                }),
                new PacedBurst.Fault(at, "unpause the stale master :" + master, () -> redis.resume(master)),
                new PacedBurst.Fault(at, "await the stale master turned replica",
                        () -> redis.awaitReplicaInSync(master, Duration.ofSeconds(60))));
    }

    /** Each shopper told they have an order whom MySQL lacks: their answer, the instance, when (from the burst's start). */
    private static void printLost(PacedBurst.Result burst, Map<Long, Integer> orders) {
        if (burst.timeline().isEmpty()) {
            return;
        }
        long start = burst.timeline().stream().mapToLong(PacedBurst.Answer::sentAtNanos).min().orElseThrow();
        burst.timeline().stream().filter(answer -> burst.accepted().contains(answer.shopper())
                && !orders.containsKey(answer.shopper())).forEach(answer -> System.out.printf(
                        "[burst] LOST shopper %d: %s from %s, sent at %.3f s, answered at %.3f s%n", answer.shopper(),
                        answer.answer(), answer.instanceId(), (answer.sentAtNanos() - start) / 1e9,
                        (answer.atNanos() - start) / 1e9));
    }

    /** How long the clients waited for their answers: what a failover costs them. */
    private static void printWaits(PacedBurst.Result burst) {
        long[] millis = burst.timeline().stream().mapToLong(answer -> (answer.atNanos() - answer.sentAtNanos()) / 1_000_000)
                .sorted().toArray();
        if (millis.length > 0) {
            System.out.printf("[burst] answer waits: median %d ms, 99th percentile %d ms, longest %d ms; %d over 3 s%n",
                    millis[millis.length / 2], millis[(int) (millis.length * 0.99)], millis[millis.length - 1],
                    Arrays.stream(millis).filter(wait -> wait > 3_000).count());
        }
    }

    /** Waits (up to 60 s) for the Sentinels to name a master other than {@code master}, and says which. */
    static void awaitFailover(RedisSentinels redis, int master) {
        long start = System.nanoTime();
        int promoted = redis.awaitFailover(master, Duration.ofSeconds(60));
        System.out.printf("[burst] the Sentinels promoted :%d, %.1f s after the wait began%n", promoted,
                (System.nanoTime() - start) / 1e9);
    }

    record Outcome(long voucherId, PacedBurst.Result burst, Map<Long, Integer> orders, JsonNode audit,
            FailoverFacts facts, long drainStart) {

        void print(String scenario) {
            ChaosReport.print(scenario, burst, orders.keySet(), audit, drainStart, facts.note());
        }

        /** Only the answers of {@link #ALLOWED} (and {@code alsoAllowed}), and some orders taken. */
        void assertOnlyAllowedAnswers(String... alsoAllowed) {
            List<String> allowed = new ArrayList<>(ALLOWED);
            allowed.addAll(List.of(alsoAllowed));
            assertThat(burst.answers().keySet()).as("only orders, refusals and outage answers").isSubsetOf(allowed);
            assertThat(burst.accepted()).as("orders were accepted").isNotEmpty();
        }
    }
}
