package dev.seckill.load;

import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

class LoadSummaryTest {

    /** results.csv beside this class: as JMeter 5.6 writes it with sample_variables=problemCode,instanceId. */
    private static final String CSV = resource("results.csv");

    /**
     * The dashboard's statistics.json for the CSV above (statistics.json beside this class), in JMeter's unordered
     * key order, with numbers unlike those the CSV would give.
     */
    private static final String STATISTICS = resource("statistics.json");

    private static final String AUDIT = """
            {"plan": "seckill-burst", "voucherId": "7", "stock": 1, "shoppers": 5, "requestsPerShopper": 1,
             "buyRequests": 5, "expectedOrders": 1, "passed": true, "failures": [], "notes": [],
             "audit": {"voucherId": 7, "initialStock": 1, "dbStock": 0, "redisStock": 0, "orders": %d,
                       "distinctBuyers": 1, "duplicateBuyers": 0, "oversold": 0, "consistent": true}}
            """;

    @TempDir
    Path target;
    private Path results;
    private Path reports;

    @BeforeEach
    void folders() throws IOException {
        results = Files.createDirectories(target.resolve("results"));
        reports = target.resolve("reports");
    }

    private static String resource(String name) {
        try (var in = LoadSummaryTest.class.getResourceAsStream(name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void write(String plan, String csv, String statistics, String audit) throws IOException {
        Files.writeString(results.resolve(plan + ".csv"), csv, StandardCharsets.UTF_8);
        if (statistics != null) {
            Path dashboard = Files.createDirectories(reports.resolve(plan));
            Files.writeString(dashboard.resolve("statistics.json"), statistics, StandardCharsets.UTF_8);
        }
        if (audit != null) {
            Files.writeString(results.resolve(plan + ".audit.json"), audit, StandardCharsets.UTF_8);
        }
    }

    @Test
    void countsAnswersByStatusAndProblemCodeAndKeepsFailureMessagesFromTheCsv() throws IOException {
        Map<String, Map<String, Integer>> answers = new LinkedHashMap<>();
        Map<String, Integer> instances = new TreeMap<>();
        List<LoadPlan.Failure> failures = new ArrayList<>();

        LoadPlan.readSamples(new StringReader(CSV), answers, instances, failures);

        assertThat(answers).containsOnlyKeys("setUp: POST /admin/vouchers", "POST /seckill/{id}",
                "GET /orders/{orderId}", "tearDown: GET /admin/vouchers/{id}/audit");
        assertThat(answers.get("POST /seckill/{id}")).containsOnly(entry("201", 1), entry("409 sold-out", 2),
                entry("503 voucher-busy", 1), entry("Non HTTP response code: java.net.ConnectException", 1));
        assertThat(instances).as("load samples only").containsExactly(entry("(none)", 1), entry("app-1", 2),
                entry("app-2", 3));
        assertThat(failures).containsExactly(
                new LoadPlan.Failure("POST /seckill/{id}", "503 voucher-busy",
                        "unexpected answer 503 voucher-busy: {\"code\":\"voucher-busy\", \"status\":503}"),
                new LoadPlan.Failure("POST /seckill/{id}", "Non HTTP response code: java.net.ConnectException",
                        "unexpected answer\non two lines"));
    }

    @Test
    void takesCountsLatenciesAndErrorsFromTheDashboardStatistics() throws IOException {
        write("seckill-burst", CSV, STATISTICS, AUDIT.formatted(1));

        LoadPlan plan = LoadPlan.readAll(results, reports).get(0);

        assertThat(plan.labels()).extracting(LoadPlan.Stats::label).as("load in CSV order, then the admin calls")
                .containsExactly("POST /seckill/{id}", "GET /orders/{orderId}", "setUp: POST /admin/vouchers",
                        "tearDown: GET /admin/vouchers/{id}/audit");
        assertThat(plan.labels().get(0)).isEqualTo(
                new LoadPlan.Stats("POST /seckill/{id}", 5, 2, 4.75, 21.4, 111.6, 137.9, 140.0));
        assertThat(plan.total()).isEqualTo(new LoadPlan.Stats("Total", 8, 2, 2.6, 15.0, 120.0, 139.0, 140.0));
        assertThat(plan.accepted()).isEqualTo(1);

        String text = LoadSummary.render(results, List.of(plan));

        assertThat(text)
                .contains("seckill-burst   voucher 7, stock 1, 5 shoppers: PASSED")
                .containsPattern("POST /seckill/\\{id} +5 +4\\.8 +21 +112 +138 +140 +2  201: 1, 409 sold-out: 2,"
                        + " 503 voucher-busy: 1, Non HTTP response code: java.net.ConnectException: 1\n")
                .containsPattern("GET /orders/\\{orderId} +1 +100\\.0 +10 +10 +10 +10 +0  200: 1\n")
                .containsPattern("all samples +8 +2\\.6 +15 +120 +139 +140 +2\n")
                .contains("answered by: (none) 1, app-1 2, app-2 3")
                .contains("audit: orders 1 (expected 1, 1 buys answered 201/202), oversold 0, duplicateBuyers 0,"
                        + " distinctBuyers 1, initialStock 1, dbStock 0, redisStock 0, consistent true")
                .contains("FAILED POST /seckill/{id}: 503 voucher-busy: unexpected answer 503 voucher-busy")
                .contains("FAILED POST /seckill/{id}: Non HTTP response code: java.net.ConnectException:"
                        + " unexpected answer on two lines")
                .contains(" 1 plan(s), 2 failed sample(s), 1 of 1 audit(s) passed")
                .doesNotContain("NOT OK")
                .doesNotContain("lifecycle:")
                .doesNotContain("outcomes:");
        assertThat(LoadSummary.problems(List.of(plan))).isEmpty();
    }

    @Test
    void shoppersToldTheyHaveAnOrderMustHaveOne() throws IOException {
        write("seckill-burst", CSV.replace(",POST /seckill/{id},409,", ",POST /seckill/{id},202,"), STATISTICS,
                AUDIT.formatted(1));
        write("flash-crowd", CSV, STATISTICS, AUDIT.formatted(2));

        List<LoadPlan> plans = LoadPlan.readAll(results, reports);

        assertThat(plans).extracting(LoadPlan::accepted).containsExactly(1L, 3L); // flash-crowd, seckill-burst
        assertThat(LoadSummary.problems(plans)).containsExactly(
                "flash-crowd: 1 buy requests answered 201/202, but the audit counts 2 orders",
                "seckill-burst: 3 buy requests answered 201/202, but the audit counts 1 orders");
        assertThat(LoadSummary.render(results, plans))
                .contains(" NOT OK: seckill-burst: 3 buy requests answered 201/202, but the audit counts 1 orders");
    }

    @Test
    void aPlanWithoutAuditOrDashboardStatisticsFailsTheBuild() throws IOException {
        write("browse-and-buy", CSV, null, null);

        List<LoadPlan> plans = LoadPlan.readAll(results, reports);

        assertThat(LoadSummary.problems(plans)).containsExactly(
                "browse-and-buy: no dashboard statistics (reports/browse-and-buy/statistics.json): see the log in"
                        + " target/jmeter/logs/browse-and-buy.jmx.log",
                "browse-and-buy: no audit written: did the tearDown group run?");
        assertThat(LoadSummary.render(results, plans)).contains("audit: none written").contains("0 of 1 audit(s)");
    }

    @Test
    void aFailureThePluginWouldRoundAwayIsCaught() throws IOException {
        assertThat(LoadSummary.failuresHiddenByPluginRounding(0, 30_000)).isFalse();
        assertThat(LoadSummary.failuresHiddenByPluginRounding(1, 1_000)).isFalse(); // 0.1 %: the plugin fails
        assertThat(LoadSummary.failuresHiddenByPluginRounding(1, 20_000)).isFalse(); // 0.005 % rounds up to 0.01 %
        assertThat(LoadSummary.failuresHiddenByPluginRounding(1, 20_001)).isTrue();

        // summed over the plans, from the dashboards' totals
        write("flash-crowd", CSV, STATISTICS.replace("\"sampleCount\": 8, \"errorCount\": 2",
                "\"sampleCount\": 15000, \"errorCount\": 1"), AUDIT.formatted(1));
        write("seckill-burst", CSV, STATISTICS.replace("\"sampleCount\": 8, \"errorCount\": 2",
                "\"sampleCount\": 15000, \"errorCount\": 0"), AUDIT.formatted(1));
        assertThat(LoadSummary.problems(LoadPlan.readAll(results, reports)))
                .containsExactly("1 failed of 30000 samples: the jmeter-maven-plugin would round this error rate to"
                        + " 0.00 % and pass it");
    }

    @Test
    void showsAnUpperBoundNotesAndAuditFailures() throws IOException {
        write("same-shopper-storm", CSV, STATISTICS, """
                {"plan": "same-shopper-storm", "voucherId": "8", "stock": 100, "shoppers": 100, "requestsPerShopper": 20,
                 "buyRequests": 2000, "expectedOrders": null, "passed": false,
                 "failures": ["duplicateBuyers 1 == 0", "consistent"],
                 "notes": ["1 unit(s) unsold although 100 shoppers asked for 100"],
                 "audit": {"voucherId": 8, "initialStock": 100, "dbStock": 1, "redisStock": null, "orders": 99,
                           "distinctBuyers": 98, "duplicateBuyers": 1, "oversold": 0, "consistent": false}}
                """);

        String text = LoadSummary.render(results, LoadPlan.readAll(results, reports));

        assertThat(text)
                .contains("same-shopper-storm   voucher 8, stock 100, 100 shoppers: FAILED")
                .contains("audit: orders 99 (at most 100, 1 buys answered 201/202), oversold 0, duplicateBuyers 1,"
                        + " distinctBuyers 98, initialStock 100, dbStock 1, redisStock none, consistent false")
                .contains("note: 1 unit(s) unsold although 100 shoppers asked for 100")
                .contains("AUDIT FAILED: duplicateBuyers 1 == 0")
                .contains("AUDIT FAILED: consistent")
                .contains("0 of 1 audit(s) passed");
    }

    @Test
    void aPlanMayNameItsUpperBound() throws IOException {
        write("browse-and-buy", CSV, STATISTICS, AUDIT.formatted(1)
                .replace("\"expectedOrders\": 1", "\"expectedOrders\": null, \"ordersAtMost\": 3"));

        assertThat(LoadSummary.render(results, LoadPlan.readAll(results, reports)))
                .contains("audit: orders 1 (at most 3, 1 buys answered 201/202)");
    }

    @Test
    void showsTheOrdersLifecycleAndWhatTheShoppersDid() throws IOException {
        write("buy-and-pay", CSV, STATISTICS, """
                {"plan": "buy-and-pay", "voucherId": "9", "stock": 3, "shoppers": 6, "requestsPerShopper": 1,
                 "buyRequests": 6, "expectedOrders": 5, "unitsBack": 2,
                 "outcomes": {"wave1.abandoned": 1, "wave1.accepted": 3, "wave1.cancelled": 1, "wave1.paid": 1,
                              "wave2.accepted": 2, "wave2.paid": 2, "wave2.soldOut": 1},
                 "passed": true, "failures": [], "notes": [],
                 "audit": {"voucherId": 9, "initialStock": 3, "dbStock": 0, "redisStock": 0, "orders": 5,
                           "distinctBuyers": 5, "duplicateBuyers": 0, "oversold": 0, "consistent": true,
                           "lifecycle": {"awaitingPayment": 0, "paid": 3, "expired": 1, "cancelled": 1,
                                         "refunded": 0, "unitsReturnedToRedis": 2, "returnsOwed": 0}}}
                """);

        String text = LoadSummary.render(results, LoadPlan.readAll(results, reports));

        assertThat(text)
                .contains("buy-and-pay   voucher 9, stock 3, 6 shoppers: PASSED")
                .contains("audit: orders 5 (expected 5, 1 buys answered 201/202)")
                .contains("lifecycle: awaitingPayment 0, paid 3, expired 1, cancelled 1, refunded 0,"
                        + " unitsReturnedToRedis 2, returnsOwed 0\n")
                .contains("outcomes: wave1.abandoned 1, wave1.accepted 3, wave1.cancelled 1, wave1.paid 1,"
                        + " wave2.accepted 2, wave2.paid 2, wave2.soldOut 1, units back between the waves 2\n");
    }

    @Test
    void saysSoWhenNoPlanRan() throws IOException {
        assertThat(LoadSummary.render(results, LoadPlan.readAll(results.resolve("missing"), reports)))
                .contains("no results");
        Files.writeString(results.resolve("seckill-burst-tokens.txt"), "not a results file", StandardCharsets.UTF_8);
        assertThat(LoadPlan.readAll(results, reports)).isEmpty();
    }
}
