package dev.seckill.chaos;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

import dev.seckill.support.PacedBurst;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the chaos tests count, print and compare, shared so that every scenario's row of docs/reliability.md's
 * table is counted the same way: from the clients' side (what they were told) against MySQL (what was written).
 * A row's scenario starts with its number in that table: scripts/chaos collects the rows by it.
 */
final class ChaosReport {

    private ChaosReport() {
    }

    /**
     * Prints one row: {@code | scenario | accepted | in MySQL | lost | doubled | oversold | failed | drain | audit |}.
     *
     * @param inMySql    the voucher's buyers in MySQL ({@link #orderCounts}'s keys)
     * @param drainStart System.nanoTime() when the burst ended and the backlog started draining
     */
    static void print(String scenario, PacedBurst.Result burst, Set<Long> inMySql, JsonNode audit, long drainStart) {
        print(scenario, burst, inMySql, Set.of(), audit, drainStart);
    }

    /**
     * As above, for a scenario that gives orders up on purpose: {@code givenUp} are shoppers told 202 whose
     * order then read FAILED (counted in "failed", not as lost).
     */
    static void print(String scenario, PacedBurst.Result burst, Set<Long> inMySql, Set<Long> givenUp, JsonNode audit,
            long drainStart) {
        print(scenario, burst, inMySql, givenUp, audit, drainStart, null);
    }

    /** As above, with {@code note} (e.g. what a failover left: {@link FailoverFacts#note}) added to the audit column. */
    static void print(String scenario, PacedBurst.Result burst, Set<Long> inMySql, JsonNode audit, long drainStart,
            String note) {
        print(scenario, burst, inMySql, Set.of(), audit, drainStart, note);
    }

    private static void print(String scenario, PacedBurst.Result burst, Set<Long> inMySql, Set<Long> givenUp,
            JsonNode audit, long drainStart, String note) {
        String verdict = audit.path("redisDataLost").asBoolean() ? "loss reported"
                : "consistent " + audit.path("consistent").asBoolean();
        System.out.printf("[chaos] | %s | %d | %d | %d | %d | %d | %d | %.1f s | %s |%n", scenario, burst.accepted().size(),
                audit.path("orders").asLong(), lost(burst, inMySql, givenUp), audit.path("duplicateBuyers").asLong(),
                audit.path("oversold").asLong(), audit.path("failedOrders").asLong(),
                (System.nanoTime() - drainStart) / 1e9, note == null ? verdict : verdict + "; " + note);
    }

    /** Shoppers told they have an order who have none in MySQL (and whose order was not given up on purpose). */
    static long lost(PacedBurst.Result burst, Set<Long> inMySql, Set<Long> givenUp) {
        return burst.accepted().stream().filter(shopper -> !inMySql.contains(shopper) && !givenUp.contains(shopper))
                .count();
    }

    /** How many orders each buyer of the voucher has in MySQL (the database at {@code dbUrl}). */
    static Map<Long, Integer> orderCounts(String dbUrl, long voucherId) {
        try (Connection db = ChaosCluster.admin(dbUrl);
                PreparedStatement query = db.prepareStatement(
                        "SELECT user_id, COUNT(*) FROM voucher_order WHERE voucher_id = ? GROUP BY user_id")) {
            query.setLong(1, voucherId);
            Map<Long, Integer> counts = new HashMap<>();
            try (ResultSet rows = query.executeQuery()) {
                while (rows.next()) {
                    counts.put(rows.getLong(1), rows.getInt(2));
                }
            }
            return counts;
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * The promise, compared from the clients' side once the backlog drained: every shopper told they have an
     * order has exactly one in MySQL, no shopper told no has one (a shopper without an answer may), nothing is
     * oversold or given up, and Redis and MySQL agree on the stock.
     *
     * @param orders {@link #orderCounts} after the drain
     * @param audit  the voucher's audit after the drain
     */
    static void assertNothingLostOrDoubled(PacedBurst.Result burst, Map<Long, Integer> orders, JsonNode audit) {
        assertThat(orders.keySet()).as("every accepted order is in MySQL").containsAll(burst.accepted());
        assertThat(orders).as("one order per shopper").allSatisfy((shopper, count) -> assertThat(count).isOne());
        Set<Long> unexplained = new HashSet<>(orders.keySet());
        unexplained.removeAll(burst.accepted());
        unexplained.removeAll(burst.unknown());
        assertThat(unexplained).as("orders of shoppers who were told no").isEmpty();
        assertThat(audit.path("duplicateBuyers").asLong()).as("duplicate buyers: %s", audit).isZero();
        assertThat(audit.path("oversold").asLong()).as("oversold: %s", audit).isZero();
        assertThat(audit.path("failedOrders").asLong()).as("no order given up: %s", audit).isZero();
        assertThat(audit.path("redisAgrees").asBoolean()).as("Redis and MySQL agree: %s", audit).isTrue();
        assertThat(audit.path("consistent").asBoolean()).as("%s", audit).isTrue();
    }

    /** The voucher's buyers in MySQL. */
    static Set<Long> buyers(String dbUrl, long voucherId) {
        return Set.copyOf(orderCounts(dbUrl, voucherId).keySet());
    }
}
