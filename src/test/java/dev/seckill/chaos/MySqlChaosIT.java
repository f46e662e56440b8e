package dev.seckill.chaos;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import dev.seckill.support.Api;
import dev.seckill.support.PacedBurst;
import dev.seckill.support.TcpProxy;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Chaos scenarios 3 and 4: MySQL unwell for 10 s in the middle of a burst, on the async path, on a
 * {@link ChaosCluster} whose instances reach MySQL through a {@link TcpProxy} and connect as a data-only
 * account, as {@code scripts/cluster} runs them (so {@code read_only} holds them, as it would in production).
 * <ul>
 *   <li>3: a black hole: the proxy keeps every connection open and forwards nothing, then forwards again;</li>
 *   <li>4: {@code SET GLOBAL read_only = ON}, then OFF (server-wide, so only {@code scripts/chaos} runs it).</li>
 * </ul>
 * Either way the path that answers the clients never waits for MySQL: every shopper is told 202, the
 * consumers meet the outage and wait it out without counting it against any order, and once the backlog
 * drained every accepted order is in MySQL exactly once, nothing is oversold or given up, and Redis and MySQL
 * agree.
 */
// Left to scripts/chaos (60 s): in ./mvnw verify, MySqlOutageIT cuts MySQL under load (nothing accepted is lost
// or given up) and SyncMySqlBlackHoleIT makes it a black hole; read-only is server-wide, never in verify.
@RunByScriptsChaos
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class MySqlChaosIT {

    static final int SHOPPERS = 2_000;
    static final Duration BURST = Duration.ofSeconds(16);
    static final Duration FAULT_AT = Duration.ofSeconds(3);
    static final Duration FAULT_FOR = Duration.ofSeconds(10);

    static ChaosCluster cluster;
    static MySqlReadOnly readOnly;
    static Api api;

    @BeforeAll
    static void start() throws Exception {
        cluster = ChaosCluster.named("chaos-mysql", "seckill_chaos_mysql").mySqlProxy().dataOnlyAccount().start();
        api = cluster.api();
        readOnly = new MySqlReadOnly(cluster.dbUrl());
    }

    @AfterAll
    static void stop() throws Exception {
        try {
            if (readOnly != null) {
                readOnly.off();
            }
        } finally {
            if (cluster != null) {
                cluster.close();
            }
        }
    }

    @Test
    void mySqlABlackHoleFor10sMidBurstLosesAndDoublesNothing() throws Exception {
        TcpProxy mySql = cluster.mySql();
        try {
            burstThrough("3. MySQL a black hole for 10 s mid-burst (async)",
                    new PacedBurst.Fault(FAULT_AT, "MySQL becomes a black hole", mySql::blackHole),
                    new PacedBurst.Fault(FAULT_AT.plus(FAULT_FOR), "MySQL forwards again", mySql::forward));
        } finally {
            mySql.forward();
        }
    }

    @Test
    void mySqlReadOnlyFor10sMidBurstLosesDoublesAndFailsNothing() throws Exception {
        String log;
        try {
            log = burstThrough("4. MySQL read-only for 10 s mid-burst (async, data-only account)",
                    new PacedBurst.Fault(FAULT_AT, "SET GLOBAL read_only = ON", readOnly::on),
                    new PacedBurst.Fault(FAULT_AT.plus(FAULT_FOR), "SET GLOBAL read_only = OFF", readOnly::off));
        } finally {
            readOnly.off();
        }
        assertThat(log).as("the consumers' writes met read_only").contains("--read-only");
    }

    /**
     * One burst with the fault in it, the backlog drained, the row printed and the promise checked; returns
     * what the instances logged meanwhile.
     */
    private static String burstThrough(String scenario, PacedBurst.Fault fault, PacedBurst.Fault recovery)
            throws Exception {
        long voucherId = api.createVoucher(100_000);
        List<String> tokens = api.mintShoppers(SHOPPERS);
        ChaosCluster.LogMark mark = cluster.logMark();

        PacedBurst.Result burst = PacedBurst.run(cluster.nginx().port(), voucherId, tokens, BURST, 32,
                List.of(fault, recovery));

        long drainStart = System.nanoTime();
        JsonNode audit = awaitDrained(voucherId);
        Map<Long, Integer> orders = ChaosReport.orderCounts(cluster.dbUrl(), voucherId);
        ChaosReport.print(scenario, burst, orders.keySet(), audit, drainStart);
        String log = cluster.logSince(mark);

        assertThat(burst.answers().keySet()).as("every shopper told they have an order, MySQL or not")
                .isSubsetOf("202 accepted", "409 already-ordered");
        ChaosReport.assertNothingLostOrDoubled(burst, orders, audit);
        assertThat(log).as("the consumers met the outage and waited it out").contains("retrying in");
        assertThat(log).as("no attempt counted against an order, none given up")
                .doesNotContain("failed attempt").doesNotContain("Gave up on order");
        return log;
    }

    /**
     * Until no order is pending. Right after MySQL is back an instance may answer the audit 503 once or twice
     * (a pooled connection the outage broke); nothing else is expected.
     */
    private static JsonNode awaitDrained(long voucherId) {
        String path = "/admin/vouchers/" + voucherId + "/audit";
        Awaitility.await("the backlog drains after MySQL is back").atMost(Duration.ofSeconds(90))
                .pollInterval(Duration.ofMillis(50)).until(() -> {
                    Api.Response audit = api.asAdmin("GET", path, null);
                    if (audit.status() != 200) {
                        audit.expectProblem(503, "backend-unavailable");
                        return false;
                    }
                    return audit.json().path("pendingOrders").asLong() == 0;
                });
        // The audit counts MySQL's orders before Redis's pending ones (see Api.awaitNoPendingOrders): again.
        return api.audit(voucherId);
    }
}
