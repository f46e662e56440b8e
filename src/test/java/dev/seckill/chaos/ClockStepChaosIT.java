package dev.seckill.chaos;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import dev.seckill.id.IdGenerator;
import dev.seckill.support.Api;
import dev.seckill.support.AppProcess;
import dev.seckill.support.Docker;
import dev.seckill.support.HostContainer;
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
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * Chaos scenario 8: one instance's wall clock steps back a minute mid-burst behind Nginx. A real step of the
 * process's clock, not a mocked {@code Clock}: the instance runs under libfaketime (LD_PRELOAD), which
 * re-reads its offset from a file once a second; the test writes {@code -60} there. Only the wall clock
 * steps ({@code FAKETIME_DONT_FAKE_MONOTONIC}): System.nanoTime stays true, as a real NTP step leaves
 * CLOCK_MONOTONIC alone.
 * <p>
 * What is checked, besides the usual comparisons from the clients' side (no accepted order lost, none
 * doubled, nothing oversold or given up, the audit consistent):
 * <ul>
 *   <li>ids: the stepped instance's ids keep growing across the step (its orders' {@code created_at} goes
 *       back a minute, their ids do not), and no id is issued twice;</li>
 *   <li>the consumer's timers are monotonic: 10 s after the step, with the other instance stopped, orders
 *       taken by the stepped instance reach MySQL within seconds, through its consumer alone;</li>
 *   <li>sale windows are wall-clock times: a sale opened 5 s ago has "not started" on the stepped
 *       instance (a refusal, nothing taken) while the other one sells it;</li>
 *   <li>JWTs: a token the stepped instance issues is dated a minute early (it expires a minute early), and
 *       the other instance accepts it; tokens issued before are accepted by both.</li>
 * </ul>
 */
// Left to scripts/chaos (52 s): in ./mvnw verify, IdGeneratorTest steps the clock back under a lease and
// StreamPollerTest runs the consumer's timers on a monotonic ticker.
@RunByScriptsChaos
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class ClockStepChaosIT {

    /** Debian's libfaketime, copied out of {@link Docker#FAKETIME}: the machine needs no faketime package. */
    static final Path LIBFAKETIME = Path.of("target", "faketime", "libfaketime.so.1").toAbsolutePath();
    static final int SHOPPERS = 1_200;
    /** Orders taken after the step with the other instance stopped: only the stepped one's consumer can write them. */
    static final int LATE_ORDERS = 20;
    static final Duration BURST = Duration.ofSeconds(8);
    static final Duration FAULT_AT = Duration.ofSeconds(3);
    static final long STEP_SECONDS = 60;
    static final Duration FAKED_START_TIMEOUT = Duration.ofMinutes(6);
    static final String STEPPED = "clock-1";
    static final String DB_URL = TestServers.properties().get("spring.datasource.url")
            .replace("/seckill_test", "/seckill_chaos_clock");

    static RedisServer redis;
    static Path offsetFile;
    static AppProcess first;
    static AppProcess second;
    static Nginx nginx;
    static Api api;

    @BeforeAll
    static void cluster() throws Exception {
        Files.createDirectories(LIBFAKETIME.getParent());
        try (HostContainer faketime = new HostContainer(Docker.FAKETIME, "faketime")) {
            faketime.start();
            faketime.copyFileFromContainer("/libfaketime.so.1", LIBFAKETIME.toString());
        }
        ChaosCluster.freshDatabase(DB_URL);
        redis = RedisServer.start("always");
        offsetFile = Files.createTempFile("seckill-faketime", ".rc");
        Files.writeString(offsetFile, "+0\n");
        Map<String, String> own = Map.of("spring.data.redis.port", Integer.toString(redis.port()),
                "spring.data.redis.database", "0", "spring.datasource.url", DB_URL);
        AppProcess.Jvm fakeClock = new AppProcess.Jvm(Map.of(
                "LD_PRELOAD", LIBFAKETIME.toString(),
                "FAKETIME_TIMESTAMP_FILE", offsetFile.toString(),
                // re-read the offset once a second: a step while the process runs
                "FAKETIME_CACHE_DURATION", "1",
                // the JVM hangs when its monotonic clock is faked too; a real clock step leaves it alone anyway
                "FAKETIME_DONT_FAKE_MONOTONIC", "1",
                // libfaketime 0.9.10 (Debian 12) turns every timed wait on a CLOCK_MONOTONIC condition variable
                // (Object.wait, Thread.sleep, parkNanos) into one that times out at once: its timedwait wrapper
                // reads the faked monotonic clock, a date, and with the "forced monotonic fix" (on by default for
                // glibc >= 2.30) sets a deadline in the past. Threads spun instead of sleeping and the instance
                // crawled. Without the fix the caller's own deadline is kept; the wall clock still steps.
                // (Fixed upstream after 0.9.12, wolfcw/libfaketime#503; no release has it.)
                "FAKETIME_FORCE_MONOTONIC_FIX", "0",
                // file times stay true (class loading, Tomcat)
                "NO_FAKE_STAT", "1"), List.of(), null, FAKED_START_TIMEOUT);
        // Side by side, to save time. The generous timeouts date from before FAKETIME_FORCE_MONOTONIC_FIX=0, when
        // the instance under libfaketime spun in every timed wait and started three times slower; they cost
        // nothing when the start is quick.
        CompletableFuture<AppProcess> starting = CompletableFuture.supplyAsync(() -> {
            try {
                return AppProcess.start("clock-2", own, new AppProcess.Jvm(Map.of(), List.of(), null, FAKED_START_TIMEOUT),
                        "--seckill.mode=async");
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        try {
            // JDBC's connect timeout (2 s) was missed at start-up while timed waits spun; kept long for busy machines.
            first = AppProcess.start(STEPPED, own, fakeClock, "--seckill.mode=async",
                    "--spring.datasource.hikari.data-source-properties.connectTimeout=20000");
        } finally {
            second = starting.get(5, TimeUnit.MINUTES); // closed by stop() whatever happened
        }
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
        if (offsetFile != null) {
            Files.deleteIfExists(offsetFile);
        }
    }

    @Test
    void clockSteppedBackAMinuteMidBurstLosesDoublesAndReusesNothing() throws Exception {
        assertThat(clockLag(first.port())).as("the instance under libfaketime runs on true time before the step")
                .isCloseTo(0, within(3L));
        long voucherId = api.createVoucher(100_000, Instant.now().minusSeconds(600), Instant.now().plusSeconds(86_400));
        List<String> tokens = api.mintShoppers(SHOPPERS + 2 + LATE_ORDERS);
        List<String> burstTokens = tokens.subList(0, SHOPPERS);

        AtomicReference<Instant> steppedAt = new AtomicReference<>();
        PacedBurst.Result burst = PacedBurst.run(nginx.port(), voucherId, burstTokens, BURST, 32, List.of(
                new PacedBurst.Fault(FAULT_AT, "step the wall clock of " + STEPPED + " back " + STEP_SECONDS + " s", () -> {
                    Files.writeString(offsetFile, "-" + STEP_SECONDS + "\n");
                    steppedAt.set(Instant.now());
                    Awaitility.await(STEPPED + "'s clock goes back").atMost(Duration.ofSeconds(5))
                            .pollInterval(Duration.ofMillis(100)).until(() -> clockLag(first.port()) >= STEP_SECONDS - 2);
                    System.out.printf("[chaos] %s's Date header now lags %d s%n", STEPPED, clockLag(first.port()));
                })));

        long drainStart = System.nanoTime();
        JsonNode audit = api.awaitNoPendingOrders(voucherId, Duration.ofSeconds(60));
        Map<Long, Integer> orders = ChaosReport.orderCounts(DB_URL, voucherId);
        ChaosReport.print("8. one instance's clock stepped back a minute mid-burst", burst, orders.keySet(), audit, drainStart);

        // Ids of the stepped instance: created_at went back a minute, the ids kept growing.
        List<Order> stepped = ordersOfWorker(voucherId, workerOf(STEPPED));
        // Told apart by how far the id's own time runs ahead of created_at: the same millisecond before the step
        // (created_at is whole seconds), about a minute after it (created_at steps back, the id does not).
        // libfaketime does not step every thread at the same instant (each reads the offset within its cache
        // second): orders stamped on true time in the second of the step are left out of "before".
        Instant stepSecond = steppedAt.get().truncatedTo(ChronoUnit.SECONDS);
        List<Order> before = stepped.stream().filter(o -> aheadSeconds(o) < 2 && o.createdAt().isBefore(stepSecond))
                .toList();
        List<Order> after = stepped.stream().filter(o -> aheadSeconds(o) > STEP_SECONDS / 2).toList();
        System.out.printf("[chaos] %s accepted %d order(s) before the step and %d after (created_at a minute early)%n",
                STEPPED, before.size(), after.size());
        assertThat(before).as("orders %s took before the step", STEPPED).isNotEmpty();
        assertThat(after).as("orders %s took after the step", STEPPED).isNotEmpty();
        long highestBefore = before.stream().mapToLong(Order::id).max().orElseThrow();
        assertThat(after).as("ids issued after the step, all above those issued before it")
                .allSatisfy(order -> assertThat(order.id()).isGreaterThan(highestBefore));

        // Sale window: wall-clock; a refusal on the stepped instance, a sale on the other.
        Api direct = new Api(first.port());
        Api other = new Api(second.port());
        // opened 5 s ago: "not started" for a clock a minute behind, for the next 55 s
        long youngVoucher = other.createVoucher(10, Instant.now().minusSeconds(5), Instant.now().plusSeconds(86_400));
        direct.seckill(youngVoucher, tokens.get(SHOPPERS)).expectProblem(409, "sale-not-started");
        other.seckill(youngVoucher, tokens.get(SHOPPERS + 1)).expectStatus(202);

        // JWT: issued by the stepped instance, dated a minute early, accepted by the other instance.
        long asked = Instant.now().getEpochSecond();
        String minted = direct.asAdmin("POST", "/admin/shoppers?count=1", null).expectStatus(201).json()
                .path("shoppers").get(0).path("token").asString();
        long answered = Instant.now().getEpochSecond();
        long issuedAt = JsonMapper.builder().build().readTree(new String(Base64.getUrlDecoder()
                .decode(minted.split("\\.")[1]), StandardCharsets.UTF_8)).path("iat").asLong();
        assertThat(issuedAt).as("iat of a token the stepped instance issued: a minute before it was asked for")
                .isBetween(asked - STEP_SECONDS - 2, answered - STEP_SECONDS + 2);
        other.get("/orders?voucherId=" + voucherId, "Authorization", "Bearer " + minted)
                .expectProblem(404, "order-not-found");

        assertNothingLostOrDoubled(burst, orders, audit);

        // Still stepped, well after the step: the stepped instance's consumer keeps reading, on timers that did
        // not step. The other instance is stopped, so orders taken now reach MySQL only through the stepped one's
        // consumer: within its quiet-stream poll (at most a second) and a batch, where timers on the wall clock
        // would have it wait a minute longer than meant. (XINFO CONSUMERS' idle time cannot tell: on Redis 7.0
        // it counts from the last read that returned messages, not the last read.)
        long wait = Duration.between(Instant.now(), steppedAt.get().plusSeconds(10)).toMillis();
        if (wait > 0) {
            Thread.sleep(wait); // a while after the step, not just right after it
        }
        assertThat(clockLag(first.port())).as("still a minute behind").isGreaterThanOrEqualTo(STEP_SECONDS - 2);
        second.terminate();
        int inMySqlBefore = orders.values().stream().mapToInt(Integer::intValue).sum();
        for (String late : tokens.subList(SHOPPERS + 2, SHOPPERS + 2 + LATE_ORDERS)) {
            direct.seckill(voucherId, late).expectStatus(202);
        }
        long taken = System.nanoTime();
        Awaitility.await("orders taken after the step written by " + STEPPED + "'s consumer alone")
                .atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(50))
                .until(() -> ChaosReport.orderCounts(DB_URL, voucherId).values().stream().mapToInt(Integer::intValue)
                        .sum() == inMySqlBefore + LATE_ORDERS);
        System.out.printf("[chaos] %d orders taken by %s alone, 10 s after the step, were in MySQL %d ms later%n",
                LATE_ORDERS, STEPPED, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - taken));
    }

    private static void assertNothingLostOrDoubled(PacedBurst.Result burst, Map<Long, Integer> orders, JsonNode audit) {
        // a 503 is a Redis command that timed out on a busy machine: refused, nothing taken (checked below)
        assertThat(burst.answers().keySet()).as("orders, already-ordered, and backend-unavailable only")
                .allMatch(answer -> answer.startsWith("202 ") || answer.equals("409 already-ordered")
                        || answer.equals("503 backend-unavailable"));
        assertThat(burst.accepted().size()).as("shoppers told they have an order").isGreaterThan(SHOPPERS * 95 / 100);
        ChaosReport.assertNothingLostOrDoubled(burst, orders, audit);
    }

    /** How many seconds the instance's wall clock is behind ours, read from its Date header. */
    private static long clockLag(int port) throws IOException, InterruptedException {
        HttpResponse<Void> answer = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + port + "/actuator/health")).build(), HttpResponse.BodyHandlers.discarding());
        Instant theirs = ZonedDateTime.parse(answer.headers().firstValue("Date").orElseThrow(),
                DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
        return Instant.now().getEpochSecond() - theirs.getEpochSecond();
    }

    record Order(long id, Instant createdAt) {
    }

    /** How far the time in the order's id is ahead of its created_at (both from the instance's clock). */
    private static long aheadSeconds(Order order) {
        return Duration.between(order.createdAt(), IdGenerator.issuedAt(order.id())).toSeconds();
    }

    /** The worker number the instance leased (id_worker_lease names its holder "<instance id>/<token>"). */
    private static long workerOf(String instanceId) throws SQLException {
        try (Connection db = connect(); PreparedStatement query = db.prepareStatement(
                "SELECT worker_id FROM id_worker_lease WHERE owner LIKE ? AND expires_at > UTC_TIMESTAMP(6)")) {
            query.setString(1, instanceId + "/%");
            try (ResultSet rows = query.executeQuery()) {
                assertThat(rows.next()).as("a lease held by %s", instanceId).isTrue();
                long worker = rows.getLong(1);
                assertThat(rows.next()).as("one lease held by %s", instanceId).isFalse();
                return worker;
            }
        }
    }

    /** The voucher's orders whose ids carry this worker number (bits 12-21 of the snowflake layout). */
    private static List<Order> ordersOfWorker(long voucherId, long worker) throws SQLException {
        try (Connection db = connect(); PreparedStatement query = db.prepareStatement(
                "SELECT id, created_at FROM voucher_order WHERE voucher_id = ? AND ((id >> 12) & 1023) = ?")) {
            query.setLong(1, voucherId);
            query.setLong(2, worker);
            List<Order> found = new ArrayList<>();
            try (ResultSet rows = query.executeQuery()) {
                while (rows.next()) {
                    found.add(new Order(rows.getLong(1), rows.getTimestamp(2).toInstant()));
                }
            }
            return found;
        }
    }

    /** Times read as the application writes them: UTC. */
    private static Connection connect() throws SQLException {
        Map<String, String> servers = TestServers.properties();
        String url = DB_URL + (DB_URL.contains("?") ? "&" : "?") + "connectionTimeZone=UTC&forceConnectionTimeZoneToSession=true";
        return DriverManager.getConnection(url, servers.get("spring.datasource.username"),
                servers.get("spring.datasource.password"));
    }
}
