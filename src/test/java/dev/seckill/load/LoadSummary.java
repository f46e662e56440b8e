package dev.seckill.load;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The summary printed at the end of {@code ./mvnw -Pload verify} (jmeter/README.md): for each plan whose
 * results CSV is in the results folder, the requests, throughput, p50/p95/p99, the answers by HTTP status and
 * problem code, the instances that answered, and the tearDown audit ({@code <plan>.audit.json}).
 *
 * <p>The CSV is JMeter's, with two extra columns the plans fill in ({@code sample_variables=problemCode,instanceId}).
 * Samples labelled {@code setUp: ...} or {@code tearDown: ...} are the plan's own admin calls, not load.
 *
 * <p>It prints and does not judge: the jmeter-maven-plugin's {@code results} goal, which runs right after it,
 * fails the build on any failed sample. One exception: the plugin rounds the error rate to 0.01 %, so with more
 * than 20,000 samples a single failure would round to 0 % and pass; this class fails the build then.
 */
final class LoadSummary {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private LoadSummary() {
    }

    public static void main(String[] args) throws IOException {
        Path dir = Path.of(args.length > 0 ? args[0] : "target/jmeter/results");
        List<Plan> plans = read(dir);
        System.out.print(render(dir, plans));
        System.out.flush();
        long samples = plans.stream().mapToLong(p -> p.samples().size()).sum();
        long failed = plans.stream().mapToLong(p -> p.samples().stream().filter(s -> !s.success()).count()).sum();
        if (failuresHiddenByPluginRounding(failed, samples)) {
            throw new IllegalStateException(failed + " failed of " + samples + " samples: the jmeter-maven-plugin"
                    + " would round this error rate to 0.00 % and pass it");
        }
    }

    /** One JMeter sample (a row of the results CSV). */
    record Sample(long timeStamp, long elapsed, String label, String responseCode, boolean success,
            String failureMessage, String problemCode, String instanceId) {

        boolean isLoad() {
            return !label.startsWith("setUp:") && !label.startsWith("tearDown:");
        }

        /** "201", "409 sold-out", "Non HTTP response code: java.net.ConnectException", ... */
        String answer() {
            return problemCode.isEmpty() ? responseCode : responseCode + " " + problemCode;
        }
    }

    /** A plan's samples and its audit file (null when the tearDown group wrote none). */
    record Plan(String name, List<Sample> samples, JsonNode audit) {
    }

    /** Count, throughput and latency of a set of samples. */
    record Stats(String label, int count, double perSecond, long p50, long p95, long p99, long max, long failed,
            Map<String, Integer> answers) {
    }

    static List<Plan> read(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        List<Path> csvs;
        try (Stream<Path> files = Files.list(dir)) {
            csvs = files.filter(f -> f.getFileName().toString().endsWith(".csv")).sorted().toList();
        }
        List<Plan> plans = new ArrayList<>();
        for (Path csv : csvs) {
            String name = csv.getFileName().toString().replaceFirst("\\.csv$", "");
            List<Sample> samples;
            try (Reader in = Files.newBufferedReader(csv, StandardCharsets.UTF_8)) {
                samples = parseSamples(in);
            }
            Path auditFile = dir.resolve(name + ".audit.json");
            JsonNode audit = Files.exists(auditFile) ? JSON.readTree(auditFile.toFile()) : null;
            plans.add(new Plan(name, samples, audit));
        }
        return plans;
    }

    /** Reads a JMeter CSV results file with a header line; columns are found by name. */
    static List<Sample> parseSamples(Reader in) throws IOException {
        List<List<String>> rows = parseCsv(in);
        if (rows.isEmpty()) {
            return List.of();
        }
        List<String> header = rows.get(0);
        int timeStamp = column(header, "timeStamp");
        int elapsed = column(header, "elapsed");
        int label = column(header, "label");
        int responseCode = column(header, "responseCode");
        int success = column(header, "success");
        int failureMessage = header.indexOf("failureMessage");
        int problemCode = header.indexOf("problemCode");
        int instanceId = header.indexOf("instanceId");
        List<Sample> samples = new ArrayList<>(rows.size() - 1);
        for (List<String> row : rows.subList(1, rows.size())) {
            if (row.size() == 1 && row.get(0).isEmpty()) {
                continue; // blank line
            }
            samples.add(new Sample(Long.parseLong(row.get(timeStamp)), Long.parseLong(row.get(elapsed)),
                    row.get(label), row.get(responseCode), Boolean.parseBoolean(row.get(success)),
                    field(row, failureMessage), field(row, problemCode), field(row, instanceId)));
        }
        return samples;
    }

    private static int column(List<String> header, String name) {
        int index = header.indexOf(name);
        if (index < 0) {
            throw new IllegalArgumentException("no column " + name + " in the results header " + header);
        }
        return index;
    }

    private static String field(List<String> row, int index) {
        return index >= 0 && index < row.size() ? row.get(index) : "";
    }

    /** RFC 4180 as JMeter writes it: comma-separated, "quoted" when needed, "" inside quotes, newlines allowed. */
    static List<List<String>> parseCsv(Reader reader) throws IOException {
        Reader in = reader.markSupported() ? reader : new BufferedReader(reader);
        List<List<String>> rows = new ArrayList<>();
        List<String> row = new ArrayList<>();
        StringBuilder field = new StringBuilder();
        boolean quoted = false;
        boolean any = false;
        int c;
        while ((c = in.read()) != -1) {
            any = true;
            if (quoted) {
                if (c == '"') {
                    in.mark(1);
                    int next = in.read();
                    if (next == '"') {
                        field.append('"');
                    } else {
                        quoted = false;
                        if (next == -1) {
                            break;
                        }
                        in.reset();
                    }
                } else {
                    field.append((char) c);
                }
            } else if (c == '"') {
                quoted = true;
            } else if (c == ',') {
                row.add(field.toString());
                field.setLength(0);
            } else if (c == '\n') {
                row.add(field.toString());
                field.setLength(0);
                rows.add(row);
                row = new ArrayList<>();
                any = false;
            } else if (c != '\r') {
                field.append((char) c);
            }
        }
        if (any || field.length() > 0 || !row.isEmpty()) {
            row.add(field.toString());
            rows.add(row);
        }
        return rows;
    }

    static Stats stats(String label, List<Sample> samples) {
        long[] elapsed = samples.stream().mapToLong(Sample::elapsed).sorted().toArray();
        long first = samples.stream().mapToLong(Sample::timeStamp).min().orElse(0);
        long last = samples.stream().mapToLong(s -> s.timeStamp() + s.elapsed()).max().orElse(0);
        double seconds = Math.max(1, last - first) / 1000.0;
        Map<String, Integer> answers = new TreeMap<>();
        samples.forEach(s -> answers.merge(s.answer(), 1, Integer::sum));
        return new Stats(label, samples.size(), samples.isEmpty() ? 0 : samples.size() / seconds,
                percentile(elapsed, 50), percentile(elapsed, 95), percentile(elapsed, 99),
                elapsed.length == 0 ? 0 : elapsed[elapsed.length - 1],
                samples.stream().filter(s -> !s.success()).count(), answers);
    }

    /** Nearest-rank percentile of sorted values (JMeter's dashboard interpolates: it may differ by a few ms). */
    static long percentile(long[] sorted, double percent) {
        if (sorted.length == 0) {
            return 0;
        }
        int rank = (int) Math.ceil(percent / 100.0 * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length, rank) - 1)];
    }

    /** The plugin computes round(failed * 10000 / total) / 100 and fails only above the 0 % threshold. */
    static boolean failuresHiddenByPluginRounding(long failed, long total) {
        return failed > 0 && Math.round(failed * 10000.0 / total) == 0;
    }

    static String render(Path dir, List<Plan> plans) {
        StringBuilder out = new StringBuilder();
        String rule = "-".repeat(100) + "\n";
        out.append('\n').append(rule)
                .append(" L O A D   S U M M A R Y   (").append(dir).append("; latencies in ms, nearest-rank)\n")
                .append(rule);
        if (plans.isEmpty()) {
            out.append(" no results: no plan ran (check -Dload.plans) or JMeter wrote nothing\n").append(rule);
            return out.toString();
        }
        int failedSamples = 0;
        int auditsPassed = 0;
        for (Plan plan : plans) {
            renderPlan(out, plan);
            failedSamples += (int) plan.samples().stream().filter(s -> !s.success()).count();
            if (plan.audit() != null && plan.audit().path("passed").asBoolean(false)) {
                auditsPassed++;
            }
            out.append(rule);
        }
        out.append(String.format(Locale.ROOT, " %d plan(s), %d failed sample(s), %d of %d audit(s) passed%n",
                plans.size(), failedSamples, auditsPassed, plans.size()));
        out.append(rule);
        return out.toString();
    }

    private static void renderPlan(StringBuilder out, Plan plan) {
        JsonNode audit = plan.audit();
        out.append(' ').append(plan.name());
        if (audit != null) {
            out.append(String.format(Locale.ROOT, "   voucher %s, stock %d, %d shoppers: %s",
                    audit.path("voucherId").asString(""), audit.path("stock").asInt(),
                    audit.path("shoppers").asInt(), audit.path("passed").asBoolean(false) ? "PASSED" : "FAILED"));
        }
        out.append('\n');

        List<Sample> load = plan.samples().stream().filter(Sample::isLoad).toList();
        List<Sample> admin = plan.samples().stream().filter(s -> !s.isLoad()).toList();
        List<Stats> rows = new ArrayList<>();
        Map<String, List<Sample>> byLabel = load.stream()
                .collect(Collectors.groupingBy(Sample::label, LinkedHashMap::new, Collectors.toList()));
        byLabel.forEach((label, samples) -> rows.add(stats(label, samples)));
        if (byLabel.size() > 1) {
            rows.add(stats("all requests", load));
        }
        if (!admin.isEmpty()) {
            rows.add(stats("setUp + tearDown", admin));
        }
        int width = Math.max(16, rows.stream().mapToInt(r -> r.label().length()).max().orElse(0));
        String format = "   %-" + width + "s %7s %8s %6s %6s %6s %6s %6s  %s%n";
        out.append(String.format(Locale.ROOT, format, "label", "count", "req/s", "p50", "p95", "p99", "max", "failed",
                "answers (status problem-code: count)"));
        for (Stats r : rows) {
            out.append(String.format(Locale.ROOT, format, r.label(), r.count(),
                    String.format(Locale.ROOT, "%.1f", r.perSecond()), r.p50(), r.p95(), r.p99(), r.max(), r.failed(),
                    r.answers().entrySet().stream().map(e -> e.getKey() + ": " + e.getValue())
                            .collect(Collectors.joining(", "))));
        }

        if (!load.isEmpty()) {
            Map<String, Integer> instances = new TreeMap<>();
            load.forEach(s -> instances.merge(s.instanceId().isEmpty() ? "(none)" : s.instanceId(), 1, Integer::sum));
            out.append("   answered by: ").append(instances.entrySet().stream()
                    .map(e -> e.getKey() + " " + e.getValue()).collect(Collectors.joining(", "))).append('\n');
        }

        if (audit == null) {
            out.append("   audit: none written (did the tearDown group run? see target/jmeter/logs/")
                    .append(plan.name()).append(".jmx.log)\n");
        } else {
            JsonNode a = audit.path("audit");
            if (a.isObject()) {
                // expectedOrders is null where only an upper bound holds (several requests per shopper)
                String expected = audit.path("expectedOrders").isNumber()
                        ? "expected " + audit.path("expectedOrders").asLong()
                        : "at most " + Math.min(audit.path("stock").asLong(), audit.path("shoppers").asLong());
                out.append(String.format(Locale.ROOT,
                        "   audit: orders %d (%s), oversold %d, duplicateBuyers %d, distinctBuyers %d,"
                                + " initialStock %d, dbStock %d, redisStock %s, consistent %s%n",
                        a.path("orders").asLong(), expected, a.path("oversold").asLong(),
                        a.path("duplicateBuyers").asLong(), a.path("distinctBuyers").asLong(),
                        a.path("initialStock").asLong(), a.path("dbStock").asLong(),
                        a.path("redisStock").isNull() ? "none" : a.path("redisStock").asString(""),
                        a.path("consistent").asBoolean(false)));
            }
            for (JsonNode note : audit.path("notes")) {
                out.append("   note: ").append(note.asString("")).append('\n');
            }
            for (JsonNode failure : audit.path("failures")) {
                out.append("   AUDIT FAILED: ").append(failure.asString("")).append('\n');
            }
        }

        List<Sample> failed = plan.samples().stream().filter(s -> !s.success())
                .sorted(Comparator.comparingLong(Sample::timeStamp)).toList();
        failed.stream().limit(10).forEach(s -> out.append("   FAILED ").append(s.label()).append(": ")
                .append(s.answer()).append(": ").append(oneLine(s.failureMessage())).append('\n'));
        if (failed.size() > 10) {
            out.append("   ... and ").append(failed.size() - 10).append(" more failed samples\n");
        }
    }

    private static String oneLine(String text) {
        String line = Arrays.stream(text.split("\\R")).map(String::strip).collect(Collectors.joining(" "));
        return line.length() > 300 ? line.substring(0, 300) + "..." : line;
    }
}
