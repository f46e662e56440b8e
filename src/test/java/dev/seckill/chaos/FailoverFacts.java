package dev.seckill.chaos;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import dev.seckill.support.Api;
import dev.seckill.support.PacedBurst;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a Redis failover left behind, read once the backlog drained: what the voucher's audit says
 * ({@code redisFailedOver}, {@code redisFailoverAt}), what each instance logged ("Redis failed over",
 * "re-applied") and counted ({@code seckill.redis.failovers}, {@code seckill.redis.failover.replayed}) since the
 * scenario's mark, and the shoppers answered 503 {@code order-unconfirmed}, with how many of their orders MySQL has.
 * {@link #note} is the row's addition; {@link #assertReported} the promise that a failover is never silent.
 *
 * @param failovers per instance, {@code seckill.redis.failovers} (NaN when the instance has no such meter)
 * @param replayed  per instance, {@code seckill.redis.failover.replayed} (NaN when it has no such meter)
 * @param logged    per instance, whether its log says "Redis failed over" since the mark
 * @param reapplied log lines saying "re-applied" since the mark, both instances
 */
record FailoverFacts(JsonNode audit, List<Double> failovers, List<Double> replayed, List<Boolean> logged, long reapplied,
        int unconfirmed, long unconfirmedInMySql) {

    static FailoverFacts collect(ChaosCluster cluster, ChaosCluster.LogMark mark, PacedBurst.Result burst,
            Set<Long> inMySql, JsonNode audit) throws IOException {
        List<Double> failovers = new ArrayList<>();
        List<Double> replayed = new ArrayList<>();
        List<Boolean> logged = new ArrayList<>();
        long reapplied = 0;
        for (int number = 1; number <= 2; number++) {
            Api instance = new Api(cluster.instance(number).port());
            failovers.add(meter(instance, "seckill.redis.failovers"));
            replayed.add(meter(instance, "seckill.redis.failover.replayed"));
            String log = cluster.instance(number).logText();
            int from = mark.lengths().get(number - 1);
            String since = log.length() >= from ? log.substring(from) : log;
            logged.add(since.contains("Redis failed over"));
            reapplied += since.lines().filter(line -> line.contains("re-applied")).count();
        }
        long unconfirmedInMySql = burst.unconfirmed().stream().filter(inMySql::contains).count();
        return new FailoverFacts(audit, failovers, replayed, logged, reapplied, burst.unconfirmed().size(),
                unconfirmedInMySql);
    }

    /** One meter's value on one instance, NaN when the instance does not have it. */
    private static double meter(Api instance, String name) {
        Api.Response metric = instance.asAdmin("GET", "/actuator/metrics/" + name, null);
        if (metric.status() == 404) {
            return Double.NaN;
        }
        return metric.expectStatus(200).json().path("measurements").get(0).path("value").asDouble();
    }

    /** For the row's audit column: "failover reported (audit, 2/2 logs, 2 counted); 0 re-applied; 3 unconfirmed (3 in MySQL)". */
    String note() {
        long loggedBy = logged.stream().filter(Boolean::booleanValue).count();
        String counted = failovers.stream().anyMatch(value -> value.isNaN()) ? "no meter"
                : String.format("%.0f counted", failovers.stream().mapToDouble(Double::doubleValue).sum());
        String replays = replayed.stream().anyMatch(value -> value.isNaN()) ? "no replay meter"
                : String.format("%.0f re-applied", replayed.stream().mapToDouble(Double::doubleValue).sum());
        return "failover " + (audit.path("redisFailedOver").asBoolean() ? "reported" : "NOT in the audit") + " ("
                + loggedBy + "/2 logs, " + counted + "); " + replays + "; " + unconfirmed + " unconfirmed ("
                + unconfirmedInMySql + " in MySQL)";
    }

    /**
     * The failover is on record: the audit says so with a time and both instances' replays, each instance logged it,
     * and one counted it. (These
     * read what the failover detection adds; the orders are checked from the client's side apart from it.)
     */
    void assertReported() {
        assertThat(audit.path("redisFailedOver").asBoolean()).as("audit redisFailedOver: %s", audit).isTrue();
        assertThat(audit.path("redisFailoverAt").isNull() || audit.path("redisFailoverAt").isMissingNode())
                .as("audit redisFailoverAt: %s", audit).isFalse();
        assertThat(logged).as("each instance logged \"Redis failed over\"").containsOnly(true);
        // Counted once per failover, by the instance that recorded it, however many noticed it.
        assertThat(failovers.stream().mapToDouble(Double::doubleValue).sum())
                .as("seckill.redis.failovers, both instances together: %s", failovers).isGreaterThanOrEqualTo(1.0);
        assertThat(audit.path("failover").path("allReplayed").asBoolean())
                .as("every instance replayed what it had accepted: %s", audit).isTrue();
    }
}
