package dev.seckill.chaos;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;

import dev.seckill.salestate.VoucherKeys;
import dev.seckill.support.Api;
import dev.seckill.support.AppProcess;
import dev.seckill.support.Nginx;
import dev.seckill.support.PacedBurst;
import dev.seckill.support.RedisServer;
import dev.seckill.support.TestServers;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Chaos scenario 5: an instance crashes exactly between the MySQL commit of a batch of orders and its
 * acknowledgement in Redis, mid-burst behind Nginx, and starts again under its own instance id. The crash is
 * a deterministic fault point that exists only in this test ({@link CommitCrashPoint}, put on the packaged
 * application's class path by the launcher, never in the jar): armed at a fixed moment of the burst, it
 * halts the JVM right after the next batch that committed new orders.
 * <p>
 * At the crash, those orders are in MySQL and still pending in Redis, unacknowledged in the crashed
 * consumer's pending list. The restarted instance reads them again (the other one is told not to take
 * them over), finds them in MySQL and acknowledges them without writing them twice. Counted from the
 * clients: every shopper told 202 (or already-ordered) has exactly one order in MySQL, no one told no has
 * one, nothing is oversold or given up, the audit is consistent.
 */
// In the full suite (-Pchaos, about 3 min): in ./mvnw verify, AsyncCrashIT kills an instance -9 mid-batch and
// SyncUnitCrashIT one holding units, each counted afterwards.
@RunByScriptsChaos
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class CommitCrashChaosIT {

    static final int SHOPPERS = 1_200;
    static final Duration BURST = Duration.ofSeconds(8);
    static final Duration FAULT_AT = Duration.ofSeconds(2);
    static final String CRASHED = "commit-crash-1";
    static final String CRASHED_CONSUMER = CRASHED + "-1";

    static final String DB_URL = TestServers.properties().get("spring.datasource.url")
            .replace("/seckill_test", "/seckill_chaos_commit");

    static RedisServer redis;
    static Path faultDir;
    static volatile AppProcess first;
    static AppProcess second;
    static Nginx nginx;
    static Api api;

    @BeforeAll
    static void cluster() throws Exception {
        redis = RedisServer.start("always");
        faultDir = Files.createTempDirectory("seckill-commit-crash");
        Map<String, String> own = Map.of("spring.data.redis.port", Integer.toString(redis.port()),
                "spring.data.redis.database", "0", "spring.datasource.url", DB_URL);
        // No takeover by the other instance within the test: what the crashed instance held must be read
        // again by its restart, under its own consumer name.
        AppProcess.Jvm crashPoint = crashPointJvm();
        first = AppProcess.start(CRASHED, own, crashPoint, "--seckill.mode=async", "--seckill.stream.claim-idle=10m");
        second = AppProcess.start("commit-crash-2", own, "--seckill.mode=async", "--seckill.stream.claim-idle=10m");
        assertThat(first.logText()).as("the fault point is in place").contains("[commit-crash-point] installed");
        nginx = Nginx.start(List.of(first.port(), second.port()), "");
        api = new Api(nginx.port());
    }

    @AfterAll
    static void stop() throws Exception {
        if (nginx != null) {
            nginx.close();
        }
        for (AutoCloseable closing : new AutoCloseable[] {first, second, redis}) {
            if (closing != null) {
                closing.close();
            }
        }
    }

    @Test
    void crashBetweenCommitAndAcknowledgementLosesAndDoublesNothing() throws Exception {
        long voucherId = api.createVoucher(100_000);
        List<String> tokens = api.mintShoppers(SHOPPERS);
        awaitInRotation(CRASHED);

        AtomicInteger exitCode = new AtomicInteger(-1);
        AtomicReference<List<Long>> committed = new AtomicReference<>(List.of());
        AtomicReference<Set<Long>> inMySqlAtCrash = new AtomicReference<>(Set.of());
        AtomicReference<Set<Long>> pendingAtCrash = new AtomicReference<>(Set.of());
        AtomicInteger heldAtCrash = new AtomicInteger(-1);

        PacedBurst.Result burst = PacedBurst.run(nginx.port(), voucherId, tokens, BURST, 32, List.of(
                new PacedBurst.Fault(FAULT_AT, "arm the fault point of " + CRASHED
                        + ": it halts right after its next batch commits, before the acknowledgement", () -> {
                    Files.createFile(faultDir.resolve("armed"));
                    exitCode.set(first.awaitExit(Duration.ofSeconds(30)));
                    List<Long> ids = committedAtCrash(voucherId);
                    committed.set(ids);
                    inMySqlAtCrash.set(idsInMySql(ids));
                    pendingAtCrash.set(heldIn(VoucherKeys.pending(voucherId), ids));
                    heldAtCrash.set((int) pendingOf(voucherId, CRASHED_CONSUMER));
                    System.out.printf("[chaos] %s halted after committing %d order(s); its consumer held %d "
                            + "unacknowledged message(s)%n", CRASHED, ids.size(), heldAtCrash.get());
                }),
                // without the fault point: it would halt again on its first batch
                new PacedBurst.Fault(FAULT_AT.plusSeconds(1), CRASHED + " starts again under its own id",
                        () -> first = first.restart(AppProcess.Jvm.PLAIN))));

        awaitInRotation(CRASHED);
        long drainStart = System.nanoTime();
        JsonNode audit = api.awaitNoPendingOrders(voucherId, Duration.ofSeconds(60));
        Map<Long, Integer> orders = ChaosReport.orderCounts(DB_URL, voucherId);
        ChaosReport.print("5. crash between the MySQL commit and the acknowledgement, restarted under its own consumer name",
                burst, orders.keySet(), audit, drainStart);

        // The crash happened where it was meant to: the batch was in MySQL and not acknowledged.
        assertThat(exitCode.get()).as("exit code of the fault point").isEqualTo(CommitCrashPoint.EXIT_CODE);
        assertThat(committed.get()).as("orders committed by the last batch").isNotEmpty();
        assertThat(inMySqlAtCrash.get()).as("committed before the crash").containsExactlyInAnyOrderElementsOf(committed.get());
        assertThat(pendingAtCrash.get()).as("not acknowledged at the crash").containsExactlyInAnyOrderElementsOf(committed.get());
        assertThat(heldAtCrash.get()).as("messages in the crashed consumer's pending list")
                .isGreaterThanOrEqualTo(committed.get().size());

        // The restart settled them: acknowledged, once in MySQL, none given up.
        assertThat(pendingOf(voucherId, CRASHED_CONSUMER)).as("read again and acknowledged by the restart").isZero();
        assertThat(idCounts(committed.get())).as("the crashed batch's orders, each once in MySQL")
                .hasSize(committed.get().size()).allSatisfy((id, count) -> assertThat(count).isOne());
        assertThat(heldIn(VoucherKeys.failed(voucherId), committed.get()))
                .as("none of them given up (FAILED) while MySQL has them").isEmpty();
        assertNothingLostOrDoubled(burst, orders, audit);
    }

    private static void assertNothingLostOrDoubled(PacedBurst.Result burst, Map<Long, Integer> orders, JsonNode audit) {
        assertThat(burst.answers().keySet()).as("orders, already-ordered, and 502/503 from the switch only")
                .allMatch(answer -> answer.startsWith("202 ") || answer.equals("409 already-ordered")
                        || answer.startsWith("502 ") || answer.startsWith("503 "));
        assertThat(burst.accepted().size()).as("the other instance took over").isGreaterThan(SHOPPERS / 2);
        ChaosReport.assertNothingLostOrDoubled(burst, orders, audit);
    }

    /**
     * The fault point's class, alone, in a folder the launcher adds to the application's class path, with a
     * {@code META-INF/spring.factories} that names it as an initializer (Spring Boot reads every such file on
     * the class path); the system properties say which file arms it and where it reports.
     */
    private static AppProcess.Jvm crashPointJvm() throws Exception {
        Path classes = Path.of(CommitCrashPoint.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        String packagePath = CommitCrashPoint.class.getPackageName().replace('.', '/');
        Path folder = faultDir.resolve("classes");
        Path target = Files.createDirectories(folder.resolve(packagePath));
        try (DirectoryStream<Path> own = Files.newDirectoryStream(classes.resolve(packagePath),
                CommitCrashPoint.class.getSimpleName() + "*.class")) {
            for (Path file : own) {
                Files.copy(file, target.resolve(file.getFileName()));
            }
        }
        Files.writeString(Files.createDirectories(folder.resolve("META-INF")).resolve("spring.factories"),
                "org.springframework.context.ApplicationContextInitializer=" + CommitCrashPoint.class.getName() + "\n");
        return new AppProcess.Jvm(Map.of(), List.of(
                "-Dchaos.commit-crash.armed-by=" + faultDir.resolve("armed"),
                "-Dchaos.commit-crash.report=" + faultDir.resolve("committed")), folder);
    }

    /** What the fault point wrote before halting: the voucher, then the ids it had just committed. */
    private static List<Long> committedAtCrash(long voucherId) throws IOException {
        String[] report = Files.readString(faultDir.resolve("committed")).trim().split(" ");
        assertThat(Long.parseLong(report[0])).as("the fault point's voucher").isEqualTo(voucherId);
        return Arrays.stream(report[1].split(",")).map(Long::valueOf).toList();
    }

    private static Set<Long> idsInMySql(List<Long> ids) {
        return idCounts(ids).keySet();
    }

    /** How many rows of voucher_order carry each of these ids. */
    private static Map<Long, Integer> idCounts(List<Long> ids) {
        Map<String, String> servers = TestServers.properties();
        String in = ids.stream().map(String::valueOf).collect(Collectors.joining(","));
        try (Connection db = DriverManager.getConnection(DB_URL, servers.get("spring.datasource.username"),
                servers.get("spring.datasource.password")); Statement query = db.createStatement();
                ResultSet rows = query.executeQuery("SELECT id, COUNT(*) FROM voucher_order WHERE id IN (" + in
                        + ") GROUP BY id")) {
            Map<Long, Integer> counts = new HashMap<>();
            while (rows.next()) {
                counts.put(rows.getLong(1), rows.getInt(2));
            }
            return counts;
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Which of these orders the hash has a field for (the pending and the failed orders are such hashes). */
    private static Set<Long> heldIn(String hash, List<Long> ids) throws IOException, InterruptedException {
        Set<Long> held = new HashSet<>();
        for (long id : ids) {
            String exists = redis.cli("hexists", hash, Long.toString(id));
            assertThat(exists).as("HEXISTS %s %d", hash, id).isIn("0", "1");
            if (exists.equals("1")) {
                held.add(id);
            }
        }
        return held;
    }

    /** Until Nginx sends requests to the instance again (it skips one that refused for fail_timeout). */
    private static void awaitInRotation(String instanceId) {
        Awaitility.await(instanceId + " answers through nginx").atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(100))
                .until(() -> instanceId.equals(api.get("/actuator/health").instanceId()));
    }

    /** Messages of the voucher's stream delivered to {@code consumer} and not acknowledged (XPENDING). */
    private static long pendingOf(long voucherId, String consumer) throws IOException, InterruptedException {
        List<String> lines = redis.cli("xpending", VoucherKeys.orders(voucherId), "order-writers").lines().toList();
        for (int i = 3; i + 1 < lines.size(); i += 2) {
            if (lines.get(i).trim().equals(consumer)) {
                return Long.parseLong(lines.get(i + 1).trim());
            }
        }
        return 0;
    }
}
