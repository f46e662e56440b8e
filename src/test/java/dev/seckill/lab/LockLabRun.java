package dev.seckill.lab;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

import dev.seckill.support.Api;
import dev.seckill.support.AppProcess;
import dev.seckill.support.Nginx;
import dev.seckill.support.RedisServer;
import dev.seckill.support.TestServers;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * The lock lab at full size (scripts/lock-lab runs it; what it measured: docs/lock-lab.md): every lock strategy of
 * the lab under each fault it takes, under the articles' load, on the tests' servers. Three Redis nodes of the lab's
 * own ({@link RedisServer}), MariaDB and the product's Redis ({@link TestServers}), two instances of the packaged
 * jar with the lab's jar on their class path ({@link AppProcess}), and a real Nginx with the repository's rules in
 * front ({@link Nginx}). For each run it starts the run, sends {@code --requests} deductions through Nginx from
 * {@code --concurrency} threads (article 004: JMeter's 200 threads × 5 loops), reads the lab's own counts, and
 * compares them with what the article says ({@link LockLabExpectations}). The node-down fault is real: the third
 * node's container is stopped for its run and started again after it.
 *
 * <p>Every result goes to .run/lock-lab/results.jsonl; then, unless {@code --no-record}, {@link LockLabReport}
 * writes docs/lock-lab.md and docs/images/lock-lab.png. Run from the repository's root, after {@code ./mvnw package}
 * (it starts target/seckill-platform.jar and target/seckill-platform-lab.jar). Exit status 2 for a wrong option, 1
 * for a failure; rows that disagree with their article are a result, not a failure.
 */
public final class LockLabRun {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final String USAGE = "usage: scripts/lock-lab [--requests 1000] [--concurrency 200] [--stock 50] "
            + "[--only STRATEGY[,STRATEGY]] [--no-record]";
    private static final Path LAB_JAR = Path.of("target", "seckill-platform-lab.jar");
    private static final Path RUN = Path.of(".run", "lock-lab");

    /** The command line, with what it did not say filled in with the defaults. */
    record Options(int requests, int concurrency, int stock, Set<String> only, boolean record) {

        static Options parse(String... args) {
            int requests = 1000;
            int concurrency = 200;
            int stock = 50;
            Set<String> only = Set.of();
            boolean record = true;
            for (int i = 0; i < args.length; i++) {
                switch (args[i]) {
                    case "--requests" -> requests = positive(args, ++i);
                    case "--concurrency" -> concurrency = positive(args, ++i);
                    case "--stock" -> stock = positive(args, ++i);
                    case "--only" -> only = Set.of(value(args, ++i).split(","));
                    case "--no-record" -> record = false;
                    default -> throw new IllegalArgumentException("unknown option " + args[i]);
                }
            }
            return new Options(requests, concurrency, stock, only, record);
        }

        private static String value(String[] args, int i) {
            if (i >= args.length) {
                throw new IllegalArgumentException(args[i - 1] + " needs a value");
            }
            return args[i];
        }

        private static int positive(String[] args, int i) {
            String value = value(args, i);
            if (!value.matches("[1-9][0-9]{0,8}")) {
                throw new IllegalArgumentException(args[i - 1] + " takes a whole number above 0, not " + value);
            }
            return Integer.parseInt(value);
        }

        /** As the page quotes it. */
        String command() {
            return "scripts/lock-lab --requests %d --concurrency %d --stock %d%s".formatted(requests, concurrency, stock,
                    only.isEmpty() ? "" : " --only " + String.join(",", only.stream().sorted().toList()));
        }
    }

    /** What the load client saw of one run's requests. */
    record Load(double perSecond, long non2xx, long failed) {
    }

    private LockLabRun() {
    }

    public static void main(String[] args) {
        Options options;
        try {
            options = Options.parse(args);
        } catch (IllegalArgumentException wrong) {
            System.err.println("[lock-lab] " + wrong.getMessage());
            System.err.println(USAGE);
            System.exit(2);
            return;
        }
        int status;
        try {
            status = run(options);
        } catch (Exception failed) {
            System.err.println("[lock-lab] ERROR: " + failed);
            failed.printStackTrace();
            status = 1;
        }
        // the servers' containers are removed by Testcontainers' exit hook; the HTTP client's threads would linger
        System.exit(status);
    }

    private static int run(Options options) throws Exception {
        if (!Files.isRegularFile(LAB_JAR)) {
            throw new IllegalStateException(LAB_JAR + " is missing: run ./mvnw package first");
        }
        Files.createDirectories(RUN);
        List<RedisServer> nodes = new ArrayList<>();
        List<AppProcess> instances = new ArrayList<>();
        Nginx nginx = null;
        try {
            log("servers: MariaDB and the product's Redis, three lab nodes (containers of the project's images)");
            TestServers.properties();
            for (int i = 0; i < 3; i++) {
                nodes.add(RedisServer.start(null));
            }
            String labNodes = String.join(",", nodes.stream().map(node -> "redis://127.0.0.1:" + node.port()).toList());
            log("instances: two of target/seckill-platform.jar with the lab's jar (logs: target/lab-app-1.log, lab-app-2.log)");
            startInstances(labNodes, instances);
            nginx = Nginx.start(instances.stream().map(AppProcess::port).toList(), "");
            log("up: Nginx :%d, instances :%d :%d, lab nodes %s".formatted(nginx.port(), instances.get(0).port(),
                    instances.get(1).port(), labNodes));
            return measure(options, new Api(nginx.port()), nginx.port(), nodes.get(2));
        } finally {
            if (nginx != null) {
                nginx.close();
            }
            for (AppProcess instance : instances) {
                instance.close();
            }
            for (RedisServer node : nodes) {
                node.close();
            }
        }
    }

    /**
     * One after the other: a start is the heaviest thing the machine does here, and the lab's Redisson clients ping
     * their nodes within the lab's node timeout while the instance boots. An instance that fails its start (that
     * ping, on a machine busy with other work) is given one more. Any {@code SECKILL_LAB_*} setting in this process's
     * environment reaches them (they inherit it), but the two the lab's servers are made of: the command line sets
     * those. Each goes into {@code started} once it runs, for the caller to stop.
     */
    private static void startInstances(String labNodes, List<AppProcess> started)
            throws IOException, InterruptedException {
        String javaOpts = System.getenv().getOrDefault("SECKILL_JAVA_OPTS", "-Xms256m -Xmx512m");
        AppProcess.Jvm jvm = new AppProcess.Jvm(Map.of(), Arrays.asList(javaOpts.trim().split("\\s+")), LAB_JAR);
        for (String id : List.of("lab-app-1", "lab-app-2")) {
            for (int attempt = 1; ; attempt++) {
                try {
                    started.add(AppProcess.start(id, Map.of(), jvm, "--seckill.lab.enabled=true",
                            "--seckill.lab.nodes=" + labNodes, "--seckill.shutdown.drain=0s"));
                    break;
                } catch (IllegalStateException failed) {
                    if (attempt == 2) {
                        throw failed;
                    }
                    log(id + " did not start (" + failed.getMessage() + "): once more");
                }
            }
        }
    }

    private static int measure(Options options, Api api, int port, RedisServer thirdNode) throws Exception {
        String startedAt = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm'Z'").withZone(ZoneOffset.UTC)
                .format(Instant.now());
        Path results = RUN.resolve("results.jsonl");
        Files.writeString(results, "");
        List<LockLabRow> rows = new ArrayList<>();
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(10)).build();
        for (JsonNode choice : api.asAdmin("GET", "/admin/lab/strategies", null).expectStatus(200).json()) {
            String strategy = choice.path("strategy").asString();
            if (!options.only().isEmpty() && !options.only().contains(strategy)) {
                continue;
            }
            for (JsonNode fault : choice.path("faults")) {
                ObjectNode result = runOne(options, api, http, port, thirdNode, strategy, fault.asString());
                Files.writeString(results, result + "\n", StandardCharsets.UTF_8, StandardOpenOption.APPEND);
                LockLabRow row = LockLabRow.of(result);
                rows.add(row);
                System.out.printf("  %s: deducted %d, oversold %d, lost %d, overlaps %d, stuck %s, %d req/s (%d not 2xx, "
                        + "%d failed): %s%n", row.key(), row.deducted(), row.oversold(), row.lostUpdates(), row.overlaps(),
                        row.stuck(), (long) Math.floor(row.loadRps()), row.non2xx(), row.failed(),
                        LockLabExpectations.of(row.key()).verdict(row));
            }
        }
        if (rows.isEmpty()) {
            throw new IllegalArgumentException("no strategy of the lab is named " + options.only());
        }
        String settings = api.asAdmin("GET", "/admin/lab/settings", null).expectStatus(200).body().trim();
        LockLabReport report = new LockLabReport(rows, options.command(), startedAt, settings, options.requests(),
                options.concurrency());
        log("%d rows, %d agree with their article, %d disagree".formatted(rows.size(),
                rows.size() - report.disagreeing(), report.disagreeing()));
        if (options.record()) {
            report.writeChart(Path.of("docs", "images", "lock-lab.png"));
            report.writeDoc(Path.of("docs", "lock-lab.md"));
            log("docs/lock-lab.md and docs/images/lock-lab.png written; the results: " + results);
        } else {
            log("results in " + results + " (--no-record: docs/lock-lab.md left as it is)");
        }
        return 0;
    }

    /** One run: started, loaded through Nginx, read back; the lab's result with the load's numbers added. */
    private static ObjectNode runOne(Options options, Api api, HttpClient http, int port, RedisServer thirdNode,
            String strategy, String fault) throws Exception {
        boolean nodeDown = fault.equals("node-down");
        if (nodeDown) {
            log("node-down: stopping the third lab node's container (:" + thirdNode.port() + ")");
            thirdNode.kill();
        }
        try {
            String id = start(api, strategy, fault, options.stock());
            Load load = send(http, URI.create("http://127.0.0.1:" + port + "/admin/lab/runs/" + id + "/deductions"),
                    options.requests(), options.concurrency());
            ObjectNode result = (ObjectNode) api.asAdmin("GET", "/admin/lab/runs/" + id, null).expectStatus(200).json();
            return result.put("loadRps", load.perSecond()).put("non2xx", load.non2xx()).put("failed", load.failed());
        } finally {
            if (nodeDown) {
                thirdNode.restart();
            }
        }
    }

    /** A node just started again takes Redisson a moment to reconnect to: the lab refuses a run until all answer. */
    private static String start(Api api, String strategy, String fault, int stock) throws InterruptedException {
        Api.Response started = null;
        for (int tries = 0; tries < 15; tries++) {
            started = api.asAdmin("POST", "/admin/lab/runs", """
                    {"strategy":"%s","fault":"%s","stock":%d}""".formatted(strategy, fault, stock));
            if (started.status() == 201) {
                return started.json().path("run").asString();
            }
            Thread.sleep(2000);
        }
        throw new IllegalStateException(strategy + "/" + fault + ": the lab did not start the run: " + started.status()
                + " " + started.body());
    }

    /**
     * {@code requests} deductions from {@code concurrency} threads, each sending its next once the last is answered
     * (ab's {@code -n} and {@code -c}); requests per second over the whole burst.
     */
    static Load send(HttpClient http, URI uri, int requests, int concurrency) throws InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(60))
                .header("Authorization", "Basic " + Base64.getEncoder().encodeToString(
                        (TestServers.ADMIN_USER + ":" + TestServers.ADMIN_PASSWORD).getBytes(StandardCharsets.UTF_8)))
                .POST(HttpRequest.BodyPublishers.noBody()).build();
        AtomicInteger left = new AtomicInteger(requests);
        LongAdder non2xx = new LongAdder();
        LongAdder failed = new LongAdder();
        ExecutorService pool = Executors.newFixedThreadPool(concurrency);
        long began = System.nanoTime();
        for (int i = 0; i < concurrency; i++) {
            pool.execute(() -> {
                while (left.getAndDecrement() > 0) {
                    try {
                        int status = http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
                        if (status / 100 != 2) {
                            non2xx.increment();
                        }
                    } catch (IOException noAnswer) {
                        failed.increment();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return;
                    }
                }
            });
        }
        pool.shutdown();
        if (!pool.awaitTermination(30, TimeUnit.MINUTES)) {
            pool.shutdownNow();
            throw new IllegalStateException("the load did not end within 30 minutes");
        }
        double seconds = (System.nanoTime() - began) / 1e9;
        return new Load(requests / seconds, non2xx.sum(), failed.sum());
    }

    private static void log(String line) {
        System.out.println("[lock-lab] " + line);
    }
}
