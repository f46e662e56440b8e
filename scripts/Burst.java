import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An outside burst against a running cluster (normally through Nginx): creates a voucher, mints
 * shoppers, fires every shopper's orders at once, then checks the invariants from the audit.
 * Exit code 0 only if all of them hold. Run it with `scripts/burst` (JDK 17+, no build needed).
 */
public class Burst {

    static final Pattern CODE = Pattern.compile("\"code\"\\s*:\\s*\"([^\"]+)\"");
    static final List<String> EXPECTED_REFUSALS = List.of("sold-out", "already-ordered", "request-in-flight");

    public static void main(String[] args) throws Exception {
        Map<String, String> opts = options(args);
        String base = opts.getOrDefault("base", "http://127.0.0.1:8080");
        int shoppers = Integer.parseInt(opts.getOrDefault("shoppers", "1000"));
        int perShopper = Integer.parseInt(opts.getOrDefault("per-shopper", "2"));
        int stock = Integer.parseInt(opts.getOrDefault("stock", "100"));
        int concurrency = Integer.parseInt(opts.getOrDefault("concurrency", "200"));
        String admin = "Basic " + Base64.getEncoder().encodeToString(
                (env("SECKILL_ADMIN_USER", "admin") + ":" + env("SECKILL_ADMIN_PASSWORD", "seckill-dev-password"))
                        .getBytes(StandardCharsets.UTF_8));

        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5)).build();
        Instant now = Instant.now();
        HttpResponse<String> voucher = send(http, HttpRequest.newBuilder(URI.create(base + "/admin/vouchers"))
                .header("Authorization", admin).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"title\":\"Burst " + now + "\",\"price\":1.00,\"stock\":"
                        + stock + ",\"beginTime\":\"" + now.minusSeconds(60) + "\",\"endTime\":\""
                        + now.plusSeconds(3600) + "\"}")));
        require(voucher.statusCode() == 201, "creating the voucher answered " + voucher.statusCode() + ": " + voucher.body());
        long voucherId = Long.parseLong(field(voucher.body(), "id"));
        HttpResponse<String> minted = send(http, HttpRequest.newBuilder(URI.create(base + "/admin/shoppers?count=" + shoppers))
                .header("Authorization", admin).header("Accept", "text/csv").POST(HttpRequest.BodyPublishers.noBody()));
        require(minted.statusCode() == 201, "minting shoppers answered " + minted.statusCode() + ": " + minted.body());
        List<String> tokens = minted.body().lines().filter(l -> !l.isBlank()).toList();

        List<String> requests = new ArrayList<>();
        for (int i = 0; i < perShopper; i++) {
            requests.addAll(tokens);
        }
        Collections.shuffle(requests, new Random(7));
        System.out.printf("[burst] voucher %d, stock %d: %d POST /seckill from %d shoppers, %d at a time, via %s%n",
                voucherId, stock, requests.size(), shoppers, concurrency, base);

        Map<String, AtomicInteger> answers = new ConcurrentHashMap<>();
        Map<String, AtomicInteger> instances = new ConcurrentHashMap<>();
        List<String> problems = Collections.synchronizedList(new ArrayList<>());
        long[] latencies = new long[requests.size()];
        ExecutorService pool = Executors.newFixedThreadPool(concurrency);
        CountDownLatch go = new CountDownLatch(1);
        List<Future<?>> futures = new ArrayList<>();
        for (int i = 0; i < requests.size(); i++) {
            int index = i;
            String token = requests.get(i);
            futures.add(pool.submit(() -> {
                go.await();
                long start = System.nanoTime();
                String answer;
                try {
                    HttpResponse<String> r = send(http, HttpRequest.newBuilder(URI.create(base + "/seckill/" + voucherId))
                            .header("Authorization", "Bearer " + token).timeout(Duration.ofSeconds(30))
                            .POST(HttpRequest.BodyPublishers.noBody()));
                    r.headers().firstValue("X-Instance-Id").ifPresent(id ->
                            instances.computeIfAbsent(id, k -> new AtomicInteger()).incrementAndGet());
                    if (r.statusCode() == 201 || r.statusCode() == 202) {
                        // 201: sync mode, in MySQL already; 202: async mode, accepted and on its way
                        answer = r.statusCode() + " order";
                    } else {
                        Matcher code = CODE.matcher(r.body());
                        boolean isProblem = r.headers().firstValue("Content-Type").orElse("").startsWith("application/problem+json");
                        answer = r.statusCode() + " " + (code.find() ? code.group(1) : "(no code)");
                        if (!isProblem || r.statusCode() >= 500 || !EXPECTED_REFUSALS.contains(answer.substring(4))) {
                            problems.add(answer + ": " + r.body());
                        }
                    }
                } catch (Exception e) {
                    answer = "dropped " + e.getClass().getSimpleName();
                    problems.add(answer + ": " + e.getMessage());
                }
                latencies[index] = System.nanoTime() - start;
                answers.computeIfAbsent(answer, k -> new AtomicInteger()).incrementAndGet();
                return null;
            }));
        }
        long started = System.nanoTime();
        go.countDown();
        for (Future<?> f : futures) {
            f.get();
        }
        double seconds = (System.nanoTime() - started) / 1e9;
        pool.shutdown();

        java.util.Arrays.sort(latencies);
        System.out.printf("[burst] %d requests in %.2f s (%.0f req/s), latency p50 %.1f ms, p99 %.1f ms%n",
                requests.size(), seconds, requests.size() / seconds, latencies[latencies.length / 2] / 1e6,
                latencies[(int) (latencies.length * 0.99)] / 1e6);
        System.out.println("[burst] answers: " + new TreeMap<>(answers));
        System.out.println("[burst] served by: " + new TreeMap<>(instances));

        // Async mode: accepted orders reach MySQL shortly after their 202; judge once none is pending.
        HttpResponse<String> audit;
        long deadline = System.currentTimeMillis() + 60_000;
        while (true) {
            audit = send(http, HttpRequest.newBuilder(URI.create(base + "/admin/vouchers/" + voucherId + "/audit"))
                    .header("Authorization", admin).GET());
            if (field(audit.body(), "pendingOrders").equals("0") || System.currentTimeMillis() > deadline) {
                break;
            }
            Thread.sleep(200);
        }
        System.out.println("[burst] audit: " + audit.body());
        int orders = answers.getOrDefault("201 order", new AtomicInteger()).get()
                + answers.getOrDefault("202 order", new AtomicInteger()).get();
        List<String> failures = new ArrayList<>();
        check(failures, problems.isEmpty(), "unexpected answers (first 5): " + problems.subList(0, Math.min(5, problems.size())));
        check(failures, orders == Math.min(stock, shoppers), "accepted orders: " + orders + ", expected " + Math.min(stock, shoppers));
        check(failures, field(audit.body(), "orders").equals(String.valueOf(orders)), "orders in MySQL differ from accepted answers");
        check(failures, field(audit.body(), "pendingOrders").equals("0"), "orders still pending after 60 s");
        check(failures, field(audit.body(), "oversold").equals("0"), "oversold");
        check(failures, field(audit.body(), "duplicateBuyers").equals("0"), "duplicate buyers");
        check(failures, field(audit.body(), "consistent").equals("true"), "audit not consistent");
        if (stock <= shoppers) {
            check(failures, field(audit.body(), "dbStock").equals("0"), "MySQL stock is not 0");
        }
        System.out.println("[burst] voucher-id " + voucherId);
        if (!failures.isEmpty()) {
            System.out.println("[burst] FAILED: " + String.join("; ", failures));
            System.exit(1);
        }
        System.out.println("[burst] OK: every invariant holds");
    }

    static HttpResponse<String> send(HttpClient http, HttpRequest.Builder request) throws Exception {
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    static String field(String json, String name) {
        Matcher m = Pattern.compile("\"" + name + "\"\\s*:\\s*\"?([^,\"}]*)").matcher(json);
        return m.find() ? m.group(1) : "";
    }

    static void check(List<String> failures, boolean ok, String message) {
        if (!ok) {
            failures.add(message);
        }
    }

    static void require(boolean ok, String message) {
        if (!ok) {
            System.err.println("[burst] " + message);
            System.exit(2);
        }
    }

    static String env(String name, String fallback) {
        String value = System.getenv(name);
        return value == null || value.isBlank() ? fallback : value;
    }

    static Map<String, String> options(String[] args) {
        Map<String, String> opts = new TreeMap<>();
        for (String arg : args) {
            if (!arg.startsWith("--") || !arg.contains("=")) {
                System.err.println("usage: scripts/burst [--base=http://127.0.0.1:8080] [--shoppers=1000] "
                        + "[--per-shopper=2] [--stock=100] [--concurrency=200]");
                System.exit(2);
            }
            opts.put(arg.substring(2, arg.indexOf('=')), arg.substring(arg.indexOf('=') + 1));
        }
        return opts;
    }
}
