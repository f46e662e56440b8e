package dev.seckill.load;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVRecord;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * What one plan's run left behind, read for {@link LoadSummary}:
 * <ul>
 *   <li>from JMeter's dashboard, {@code <reports>/<plan>/statistics.json}: per label and in total the count,
 *       failed samples, throughput and latencies (the dashboard's own numbers);</li>
 *   <li>from the results CSV, {@code <results>/<plan>.csv}, only what JMeter does not count: the answers by HTTP
 *       status and problem code, the instances that answered (the plans' extra columns
 *       {@code sample_variables=problemCode,instanceId}), and the failed samples' messages;</li>
 *   <li>the tearDown group's audit and verdict, {@code <results>/<plan>.audit.json}.</li>
 * </ul>
 * Samples labelled {@code setUp: ...}, {@code between: ...} or {@code tearDown: ...} are the plan's own admin calls
 * (buy-and-pay's wait between its waves is one), not load.
 */
record LoadPlan(String name, List<Stats> labels, Stats total, Map<String, Map<String, Integer>> answers,
        Map<String, Integer> instances, List<Failure> failures, JsonNode audit) {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final CSVFormat JMETER_CSV = CSVFormat.DEFAULT.builder().setHeader().setSkipHeaderRecord(true).get();

    /** A row of statistics.json; p95 and p99 are its pct2 and pct3 (the profile sets aggregate_rpt_pct2/3). */
    record Stats(String label, long count, long failed, double perSecond, double p50, double p95, double p99,
            double max) {

        static Stats of(JsonNode row) {
            return new Stats(row.path("transaction").asString(""), row.path("sampleCount").asLong(),
                    row.path("errorCount").asLong(), row.path("throughput").asDouble(),
                    row.path("medianResTime").asDouble(), row.path("pct2ResTime").asDouble(),
                    row.path("pct3ResTime").asDouble(), row.path("maxResTime").asDouble());
        }
    }

    /** A failed sample: its label, its answer ("503 voucher-busy") and the assertion's message. */
    record Failure(String label, String answer, String message) {
    }

    static boolean isLoad(String label) {
        return !label.startsWith("setUp:") && !label.startsWith("between:") && !label.startsWith("tearDown:");
    }

    /** Answers of the load samples with this label (empty when there were none). */
    Map<String, Integer> answersOf(String label) {
        return answers.getOrDefault(label, Map.of());
    }

    /** Buy requests answered 201 or 202: shoppers told they have an order. */
    long accepted() {
        return answers.entrySet().stream().filter(e -> e.getKey().startsWith("POST /seckill/"))
                .flatMap(e -> e.getValue().entrySet().stream())
                .filter(e -> e.getKey().matches("20[12]( .*)?"))
                .mapToLong(Map.Entry::getValue).sum();
    }

    /** Every plan with a results CSV in {@code results}, by name; statistics from {@code reports/<plan>/}. */
    static List<LoadPlan> readAll(Path results, Path reports) throws IOException {
        if (!Files.isDirectory(results)) {
            return List.of();
        }
        List<LoadPlan> plans = new ArrayList<>();
        try (Stream<Path> files = Files.list(results)) {
            for (Path csv : files.filter(f -> f.getFileName().toString().endsWith(".csv")).sorted().toList()) {
                plans.add(read(csv.getFileName().toString().replaceFirst("\\.csv$", ""), results, reports));
            }
        }
        return plans;
    }

    static LoadPlan read(String name, Path results, Path reports) throws IOException {
        Map<String, Map<String, Integer>> answers = new LinkedHashMap<>();
        Map<String, Integer> instances = new TreeMap<>();
        List<Failure> failures = new ArrayList<>();
        try (Reader in = Files.newBufferedReader(results.resolve(name + ".csv"), StandardCharsets.UTF_8)) {
            readSamples(in, answers, instances, failures);
        }
        Path statistics = reports.resolve(name).resolve("statistics.json");
        List<Stats> labels = new ArrayList<>();
        Stats total = null;
        if (Files.exists(statistics)) {
            for (JsonNode row : JSON.readTree(statistics.toFile())) {
                Stats stats = Stats.of(row);
                if (stats.label().equals("Total")) {
                    total = stats;
                } else {
                    labels.add(stats);
                }
            }
            // in the order the samples first appear in the CSV; then the admin calls
            List<String> order = new ArrayList<>(answers.keySet());
            labels.sort(Comparator.comparing((Stats s) -> !isLoad(s.label()))
                    .thenComparing(s -> order.indexOf(s.label())).thenComparing(Stats::label));
        }
        Path auditFile = results.resolve(name + ".audit.json");
        JsonNode audit = Files.exists(auditFile) ? JSON.readTree(auditFile.toFile()) : null;
        return new LoadPlan(name, labels, total, answers, instances, failures, audit);
    }

    /** Reads JMeter's CSV (with its header line) for what statistics.json does not have. */
    static void readSamples(Reader in, Map<String, Map<String, Integer>> answers, Map<String, Integer> instances,
            List<Failure> failures) throws IOException {
        try (CSVParser csv = CSVParser.parse(in, JMETER_CSV)) {
            for (CSVRecord sample : csv) {
                String label = sample.get("label");
                String code = optional(sample, "problemCode");
                String answer = code.isEmpty() ? sample.get("responseCode") : sample.get("responseCode") + " " + code;
                answers.computeIfAbsent(label, l -> new TreeMap<>()).merge(answer, 1, Integer::sum);
                if (isLoad(label)) {
                    String instance = optional(sample, "instanceId");
                    instances.merge(instance.isEmpty() ? "(none)" : instance, 1, Integer::sum);
                }
                if (!Boolean.parseBoolean(sample.get("success"))) {
                    failures.add(new Failure(label, answer, optional(sample, "failureMessage")));
                }
            }
        }
    }

    private static String optional(CSVRecord sample, String column) {
        return sample.isMapped(column) && sample.isSet(column) ? sample.get(column) : "";
    }
}
