package dev.seckill.load;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

import tools.jackson.databind.JsonNode;

/**
 * The summary printed at the end of {@code ./mvnw -Pload verify} (jmeter/README.md): per plan, JMeter's own
 * dashboard statistics per label, the answers by HTTP status and problem code, the instances that answered and
 * the tearDown audit ({@link LoadPlan} reads them).
 *
 * <p>The jmeter-maven-plugin's {@code results} goal, which runs right after it, fails the build on any failed
 * sample, and a failed audit is a failed sample. This class fails the build on what the plugin cannot see:
 * <ul>
 *   <li>failures the plugin rounds away: it rounds the error rate to 0.01 %, so with more than 20,000 samples
 *       one failure would round to 0 % and pass;</li>
 *   <li>a plan whose buy requests were answered 201/202 more or fewer times than the audit counts orders:
 *       shoppers told they have an order must have one, and nobody else;</li>
 *   <li>a plan without an audit (the tearDown group did not run) or without dashboard statistics.</li>
 * </ul>
 */
final class LoadSummary {

    private static final String RULE = "-".repeat(100) + "\n";

    private LoadSummary() {
    }

    /** Arguments: the results folder, then the dashboards' folder (default: {@code reports} beside it). */
    public static void main(String[] args) throws IOException {
        Path results = Path.of(args.length > 0 ? args[0] : "target/jmeter/results");
        Path reports = args.length > 1 ? Path.of(args[1]) : results.resolveSibling("reports");
        List<LoadPlan> plans = LoadPlan.readAll(results, reports);
        System.out.print(render(results, plans));
        System.out.flush();
        List<String> problems = problems(plans);
        if (!problems.isEmpty()) {
            throw new IllegalStateException(String.join("; ", problems));
        }
    }

    /** What fails the build here (see the class comment); empty when all is well. */
    static List<String> problems(List<LoadPlan> plans) {
        List<String> problems = new ArrayList<>();
        plans.forEach(plan -> problems(plan).forEach(p -> problems.add(plan.name() + ": " + p)));
        long samples = plans.stream().filter(p -> p.total() != null).mapToLong(p -> p.total().count()).sum();
        long failed = plans.stream().filter(p -> p.total() != null).mapToLong(p -> p.total().failed()).sum();
        if (failuresHiddenByPluginRounding(failed, samples)) {
            problems.add(failed + " failed of " + samples + " samples: the jmeter-maven-plugin would round this"
                    + " error rate to 0.00 % and pass it");
        }
        return problems;
    }

    static List<String> problems(LoadPlan plan) {
        List<String> problems = new ArrayList<>();
        if (plan.total() == null) {
            problems.add("no dashboard statistics (reports/" + plan.name() + "/statistics.json): see the log in"
                    + " target/jmeter/logs/" + plan.name() + ".jmx.log");
        }
        JsonNode orders = plan.audit() == null ? null : plan.audit().path("audit").path("orders");
        if (plan.audit() == null) {
            problems.add("no audit written: did the tearDown group run?");
        } else if (orders.isNumber() && orders.asLong() != plan.accepted()) {
            problems.add(plan.accepted() + " buy requests answered 201/202, but the audit counts " + orders.asLong()
                    + " orders");
        }
        return problems;
    }

    /** The plugin computes round(failed * 10000 / total) / 100 and fails only above the 0 % threshold. */
    static boolean failuresHiddenByPluginRounding(long failed, long total) {
        return failed > 0 && Math.round(failed * 10000.0 / total) == 0;
    }

    static String render(Path dir, List<LoadPlan> plans) {
        StringBuilder out = new StringBuilder();
        out.append('\n').append(RULE).append(" L O A D   S U M M A R Y   (").append(dir)
                .append("; JMeter's dashboard statistics, latencies in ms)\n").append(RULE);
        if (plans.isEmpty()) {
            out.append(" no results: no plan ran (check -Dload.plans) or JMeter wrote nothing\n").append(RULE);
            return out.toString();
        }
        for (LoadPlan plan : plans) {
            renderPlan(out, plan);
            out.append(RULE);
        }
        long failed = plans.stream().filter(p -> p.total() != null).mapToLong(p -> p.total().failed()).sum();
        long passed = plans.stream().filter(p -> p.audit() != null && p.audit().path("passed").asBoolean(false)).count();
        out.append(String.format(Locale.ROOT, " %d plan(s), %d failed sample(s), %d of %d audit(s) passed%n",
                plans.size(), failed, passed, plans.size()));
        problems(plans).forEach(p -> out.append(" NOT OK: ").append(p).append('\n'));
        return out.append(RULE).toString();
    }

    private static void renderPlan(StringBuilder out, LoadPlan plan) {
        JsonNode audit = plan.audit();
        out.append(' ').append(plan.name());
        if (audit != null) {
            out.append(String.format(Locale.ROOT, "   voucher %s, stock %d, %d shoppers: %s",
                    audit.path("voucherId").asString(""), audit.path("stock").asInt(),
                    audit.path("shoppers").asInt(), audit.path("passed").asBoolean(false) ? "PASSED" : "FAILED"));
        }
        out.append('\n');

        int width = Math.max(16, plan.labels().stream().mapToInt(r -> r.label().length()).max().orElse(0));
        String format = "   %-" + width + "s %7s %8s %6s %6s %6s %6s %6s  %s";
        out.append(String.format(Locale.ROOT, format, "label", "count", "req/s", "p50", "p95", "p99", "max", "failed",
                "answers (status problem-code: count)")).append('\n');
        plan.labels().forEach(r -> row(out, format, r.label(), r, plan.answersOf(r.label())));
        if (plan.total() != null) {
            row(out, format, "all samples", plan.total(), Map.of());
        }
        if (!plan.instances().isEmpty()) {
            out.append("   answered by: ").append(plan.instances().entrySet().stream()
                    .map(e -> e.getKey() + " " + e.getValue()).collect(Collectors.joining(", "))).append('\n');
        }
        renderAudit(out, plan);
        plan.failures().stream().limit(10).forEach(f -> out.append("   FAILED ").append(f.label()).append(": ")
                .append(f.answer()).append(": ").append(oneLine(f.message())).append('\n'));
        if (plan.failures().size() > 10) {
            out.append("   ... and ").append(plan.failures().size() - 10).append(" more failed samples\n");
        }
    }

    private static void row(StringBuilder out, String format, String label, LoadPlan.Stats r,
            Map<String, Integer> answers) {
        out.append(String.format(Locale.ROOT, format, label, r.count(), String.format(Locale.ROOT, "%.1f",
                r.perSecond()), ms(r.p50()), ms(r.p95()), ms(r.p99()), ms(r.max()), r.failed(), answers.entrySet()
                .stream().map(e -> e.getKey() + ": " + e.getValue()).collect(Collectors.joining(", ")))
                .stripTrailing()).append('\n');
    }

    private static void renderAudit(StringBuilder out, LoadPlan plan) {
        JsonNode audit = plan.audit();
        if (audit == null) {
            out.append("   audit: none written (did the tearDown group run? see target/jmeter/logs/")
                    .append(plan.name()).append(".jmx.log)\n");
            return;
        }
        JsonNode a = audit.path("audit");
        if (a.isObject()) {
            // expectedOrders is null where only an upper bound holds: ordersAtMost when the plan names it
            String expected = audit.path("expectedOrders").isNumber()
                    ? "expected " + audit.path("expectedOrders").asLong()
                    : "at most " + (audit.path("ordersAtMost").isNumber() ? audit.path("ordersAtMost").asLong()
                            : Math.min(audit.path("stock").asLong(), audit.path("shoppers").asLong()));
            out.append(String.format(Locale.ROOT,
                    "   audit: orders %d (%s, %d buys answered 201/202), oversold %d, duplicateBuyers %d,"
                            + " distinctBuyers %d, initialStock %d, dbStock %d, redisStock %s, consistent %s%n",
                    a.path("orders").asLong(), expected, plan.accepted(), a.path("oversold").asLong(),
                    a.path("duplicateBuyers").asLong(), a.path("distinctBuyers").asLong(),
                    a.path("initialStock").asLong(), a.path("dbStock").asLong(),
                    a.path("redisStock").isNull() ? "none" : a.path("redisStock").asString(""),
                    a.path("consistent").asBoolean(false)));
            // what happened to the orders after the click; older audits have no lifecycle
            JsonNode l = a.path("lifecycle");
            if (l.isObject()) {
                out.append("   lifecycle: ").append(fields(l)).append('\n');
            }
        }
        // buy-and-pay: what the shoppers did, as its assertions counted it (the audit is held to it)
        if (audit.path("outcomes").isObject()) {
            out.append("   outcomes: ").append(fields(audit.path("outcomes")));
            if (audit.path("unitsBack").isNumber()) {
                out.append(", units back between the waves ").append(audit.path("unitsBack").asLong());
            }
            out.append('\n');
        }
        audit.path("notes").forEach(note -> out.append("   note: ").append(note.asString("")).append('\n'));
        audit.path("failures").forEach(f -> out.append("   AUDIT FAILED: ").append(f.asString("")).append('\n'));
    }

    private static String fields(JsonNode object) {
        return object.properties().stream().map(e -> e.getKey() + " " + e.getValue().asString(""))
                .collect(Collectors.joining(", "));
    }

    private static String ms(double value) {
        return String.valueOf(Math.round(value));
    }

    private static String oneLine(String text) {
        String line = Arrays.stream(text.split("\\R")).map(String::strip).collect(Collectors.joining(" "));
        return line.length() > 300 ? line.substring(0, 300) + "..." : line;
    }
}
