package dev.seckill.load;

import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.LongStream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

class LoadSummaryTest {

    /** As JMeter 5.6 writes it with sample_variables=problemCode,instanceId (quoted names, a quoted message). */
    private static final String CSV = """
            timeStamp,elapsed,label,responseCode,responseMessage,threadName,dataType,success,failureMessage,bytes,sentBytes,grpThreads,allThreads,URL,Latency,IdleTime,Connect,"problemCode","instanceId"
            1000,50,setUp: POST /admin/vouchers,201,,setUp 1-1,text,true,,438,440,1,1,http://h/admin/vouchers,47,0,15,,app-1
            2000,10,POST /seckill/{id},201,,Shoppers 1-1,text,true,,214,308,3,3,http://h/seckill/7,10,0,1,,app-1
            2100,20,POST /seckill/{id},409,,Shoppers 1-2,text,true,,290,308,3,3,http://h/seckill/7,20,0,1,sold-out,app-2
            2200,30,POST /seckill/{id},409,,Shoppers 1-3,text,true,,290,308,3,3,http://h/seckill/7,30,0,1,sold-out,app-2
            2300,40,POST /seckill/{id},503,,Shoppers 1-3,text,false,"unexpected answer 503 voucher-busy: {""code"":""voucher-busy"", ""status"":503}",290,308,3,3,http://h/seckill/7,40,0,1,voucher-busy,app-1
            2990,10,POST /seckill/{id},Non HTTP response code: java.net.ConnectException,"Non HTTP response message: Connection refused",Shoppers 1-1,text,false,"unexpected answer
            on two lines",0,0,1,1,http://h/seckill/7,0,0,0,,
            4000,12,tearDown: GET /admin/vouchers/{id}/audit,200,,tearDown 1-1,text,true,,312,199,1,1,http://h/admin/vouchers/7/audit,12,0,3,,app-2
            """;

    private static final String AUDIT = """
            {
                "plan": "seckill-burst", "voucherId": "7", "stock": 1, "shoppers": 5, "requestsPerShopper": 1,
                "buyRequests": 5, "expectedOrders": 1, "passed": true, "failures": [], "notes": [],
                "audit": {"voucherId": 7, "initialStock": 1, "dbStock": 0, "redisStock": 0, "orders": 1,
                          "distinctBuyers": 1, "duplicateBuyers": 0, "oversold": 0, "consistent": true}
            }
            """;

    @Test
    void readsJMeterCsvWithQuotedFieldsAndTheExtraColumns() throws IOException {
        List<LoadSummary.Sample> samples = LoadSummary.parseSamples(new StringReader(CSV));

        assertThat(samples).hasSize(7);
        LoadSummary.Sample busy = samples.get(4);
        assertThat(busy.success()).isFalse();
        assertThat(busy.failureMessage()).isEqualTo("unexpected answer 503 voucher-busy: {\"code\":\"voucher-busy\", \"status\":503}");
        assertThat(busy.answer()).isEqualTo("503 voucher-busy");
        assertThat(samples.get(5).failureMessage()).isEqualTo("unexpected answer\non two lines");
        assertThat(samples.get(5).instanceId()).isEmpty();
        assertThat(samples.get(2).answer()).isEqualTo("409 sold-out");
        assertThat(samples.get(0).isLoad()).isFalse();
        assertThat(samples.get(1).isLoad()).isTrue();
    }

    @Test
    void statsCountAnswersByStatusAndProblemCode() throws IOException {
        List<LoadSummary.Sample> load = LoadSummary.parseSamples(new StringReader(CSV)).stream()
                .filter(LoadSummary.Sample::isLoad).toList();

        LoadSummary.Stats stats = LoadSummary.stats("POST /seckill/{id}", load);

        assertThat(stats.count()).isEqualTo(5);
        assertThat(stats.failed()).isEqualTo(2);
        assertThat(stats.perSecond()).isEqualTo(5 / 1.0); // 2000 .. 3000 ms
        assertThat(stats.p50()).isEqualTo(20);
        assertThat(stats.max()).isEqualTo(40);
        assertThat(stats.answers()).containsExactly(
                entry("201", 1),
                entry("409 sold-out", 2),
                entry("503 voucher-busy", 1),
                entry("Non HTTP response code: java.net.ConnectException", 1));
    }

    @Test
    void percentilesAreNearestRank() {
        long[] oneToHundred = LongStream.rangeClosed(1, 100).toArray();
        assertThat(LoadSummary.percentile(oneToHundred, 50)).isEqualTo(50);
        assertThat(LoadSummary.percentile(oneToHundred, 95)).isEqualTo(95);
        assertThat(LoadSummary.percentile(oneToHundred, 99)).isEqualTo(99);
        assertThat(LoadSummary.percentile(new long[] {7}, 99)).isEqualTo(7);
        assertThat(LoadSummary.percentile(new long[0], 50)).isZero();
    }

    @Test
    void aFailureThePluginWouldRoundAwayIsCaught() {
        assertThat(LoadSummary.failuresHiddenByPluginRounding(0, 30_000)).isFalse();
        assertThat(LoadSummary.failuresHiddenByPluginRounding(1, 1_000)).isFalse(); // 0.1 %: the plugin fails
        assertThat(LoadSummary.failuresHiddenByPluginRounding(1, 20_000)).isFalse(); // 0.005 % rounds up to 0.01 %
        assertThat(LoadSummary.failuresHiddenByPluginRounding(1, 20_001)).isTrue();
    }

    @Test
    void rendersEachPlanWithItsAudit(@TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("seckill-burst.csv"), CSV, StandardCharsets.UTF_8);
        Files.writeString(dir.resolve("seckill-burst.audit.json"), AUDIT, StandardCharsets.UTF_8);
        Files.writeString(dir.resolve("flash-crowd.csv"), CSV.lines().limit(3).map(l -> l + "\n")
                .reduce("", String::concat), StandardCharsets.UTF_8);
        Files.writeString(dir.resolve("seckill-burst-tokens.txt"), "not a results file", StandardCharsets.UTF_8);

        List<LoadSummary.Plan> plans = LoadSummary.read(dir);
        String text = LoadSummary.render(dir, plans);

        assertThat(plans).extracting(LoadSummary.Plan::name).containsExactly("flash-crowd", "seckill-burst");
        assertThat(text)
                .contains("seckill-burst   voucher 7, stock 1, 5 shoppers: PASSED")
                .contains("201: 1, 409 sold-out: 2, 503 voucher-busy: 1")
                .contains("answered by: (none) 1, app-1 2, app-2 2")
                .contains("audit: orders 1 (expected 1), oversold 0, duplicateBuyers 0, distinctBuyers 1,"
                        + " initialStock 1, dbStock 0, redisStock 0, consistent true")
                .contains("FAILED POST /seckill/{id}: 503 voucher-busy: unexpected answer 503 voucher-busy")
                .contains("FAILED POST /seckill/{id}: Non HTTP response code: java.net.ConnectException:"
                        + " unexpected answer on two lines")
                .contains("audit: none written")
                .contains("2 plan(s), 2 failed sample(s), 1 of 2 audit(s) passed");
        assertThat(text.lines().filter(l -> l.strip().startsWith("setUp + tearDown"))).hasSize(2);
    }

    @Test
    void showsAnUpperBoundNotesAndAuditFailures(@TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("same-shopper-storm.csv"), CSV, StandardCharsets.UTF_8);
        Files.writeString(dir.resolve("same-shopper-storm.audit.json"), """
                {"plan": "same-shopper-storm", "voucherId": "8", "stock": 100, "shoppers": 100, "requestsPerShopper": 20,
                 "buyRequests": 2000, "expectedOrders": null, "passed": false,
                 "failures": ["duplicateBuyers 1 == 0", "consistent"],
                 "notes": ["1 unit(s) unsold although 100 shoppers asked for 100"],
                 "audit": {"voucherId": 8, "initialStock": 100, "dbStock": 1, "redisStock": null, "orders": 99,
                           "distinctBuyers": 98, "duplicateBuyers": 1, "oversold": 0, "consistent": false}}
                """, StandardCharsets.UTF_8);

        String text = LoadSummary.render(dir, LoadSummary.read(dir));

        assertThat(text)
                .contains("same-shopper-storm   voucher 8, stock 100, 100 shoppers: FAILED")
                .contains("audit: orders 99 (at most 100), oversold 0, duplicateBuyers 1, distinctBuyers 98,"
                        + " initialStock 100, dbStock 1, redisStock none, consistent false")
                .contains("note: 1 unit(s) unsold although 100 shoppers asked for 100")
                .contains("AUDIT FAILED: duplicateBuyers 1 == 0")
                .contains("AUDIT FAILED: consistent")
                .contains("0 of 1 audit(s) passed");
    }

    @Test
    void saysSoWhenNoPlanRan(@TempDir Path dir) throws IOException {
        assertThat(LoadSummary.render(dir, LoadSummary.read(dir.resolve("missing")))).contains("no results");
    }
}
