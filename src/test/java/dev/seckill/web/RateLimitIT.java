package dev.seckill.web;

import java.net.http.HttpClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import dev.seckill.support.Api.Response;
import dev.seckill.support.Api;
import dev.seckill.support.Instances;
import dev.seckill.support.NginxFrontedTest;
import dev.seckill.support.RawHttp;
import dev.seckill.support.TestServers;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.test.context.TestPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The limits are shared by every instance (a second instance runs beside the test's), answer 429
 * {@code rate-limited} with {@code Retry-After}, and a flood changes nothing but what one request may. Failed admin
 * logins are counted per client address and user name, also as Nginx tells the address (the repository's rules in
 * front of the test's instance), so a stranger cannot lock the admin out.
 */
@ExtendWith(OutputCaptureExtension.class)
// Sync, as the second instance: the one order is in MySQL when its 201 comes.
@TestPropertySource(properties = "seckill.mode=sync")
class RateLimitIT extends NginxFrontedTest {

    static ConfigurableApplicationContext second;

    @AfterAll
    static void stopSecond() {
        if (second != null) {
            second.close();
            second = null;
        }
    }

    Api secondInstance() {
        if (second == null) {
            second = Instances.start("sync", "rate-limit-second");
        }
        return new Api(Instances.port(second));
    }

    @Test
    void tenThousandRequestsOfOneShopperInASecondBuyOnceAndAreMostlyRateLimited() throws Exception {
        long voucherId = api.createVoucher(10);
        String token = api.mintShoppers(1).get(0);
        Api other = secondInstance();
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        Api a = new Api(port, http);
        Api b = new Api(Instances.port(second), http);

        Map<String, AtomicInteger> answers = new ConcurrentHashMap<>();
        ExecutorService clients = Executors.newFixedThreadPool(64);
        long started = System.nanoTime();
        List<Future<?>> sent = new ArrayList<>();
        for (int i = 0; i < 10_000; i++) {
            Api target = i % 2 == 0 ? a : b;
            sent.add(clients.submit(() -> {
                Response answer = target.seckill(voucherId, token);
                String key = answer.status() + " " + answer.code();
                if (answer.status() == 429 && "rate-limited".equals(answer.code())) {
                    answer.expectProblem(429, "rate-limited");
                }
                answers.computeIfAbsent(key, k -> new AtomicInteger()).incrementAndGet();
            }));
        }
        for (Future<?> f : sent) {
            f.get();
        }
        clients.shutdown();
        double seconds = (System.nanoTime() - started) / 1e9;

        int limited = answers.getOrDefault("429 rate-limited", new AtomicInteger()).get();
        // 25 a second, a burst of 25 at the start, and one window's worth for the windows the run straddles: on a
        // loaded machine the 10,000 requests took 52 s and 26 a second got through (1,354 against a bound of 1,350).
        int allowedAtMost = (int) (25 * (Math.ceil(seconds) + 2));
        assertThat(limited).as("%s in %.1f s", answers, seconds).isGreaterThanOrEqualTo(10_000 - allowedAtMost);
        // 64 threads of one JVM flood two instances in the same JVM: on 2 cores Redisson's event loop fell behind
        // once in CI (1 of 10,000: "Command still hasn't been written into connection"), answered as the outage it
        // is. An honest 503, rare, is allowed; any other answer is not.
        assertThat(answers.keySet()).as("only the order, its repeats, the limit, and a rare outage: %s", answers)
                .isSubsetOf("201 null", "409 already-ordered", "429 request-in-flight", "429 rate-limited",
                        "503 backend-unavailable");
        assertThat(answers.getOrDefault("503 backend-unavailable", new AtomicInteger()).get()).as("%s", answers)
                .isLessThanOrEqualTo(50);
        assertThat(answers.get("201 null").get()).isEqualTo(1);
        assertThat(api.audit(voucherId).path("orders").asLong()).isEqualTo(1);
        assertThat(other.audit(voucherId).path("dbStock").asLong()).isEqualTo(9);
    }

    @Test
    void theRateLimitedAnswerSaysWhenToComeBack() throws Exception {
        long voucherId = api.createVoucher(10);
        String token = api.mintShoppers(1).get(0);
        // At once, from 12 threads: one after another, a loaded machine answers them slower than the limit refills.
        // The refused answer itself is read, not a request asked again after it.
        ExecutorService senders = Executors.newFixedThreadPool(12);
        List<Future<RawHttp.Answer>> answers = new ArrayList<>();
        for (int i = 0; i < 60; i++) {
            answers.add(senders.submit(() -> RawHttp.send(port, "POST /seckill/" + voucherId, "Authorization",
                    "Bearer " + token)));
        }
        RawHttp.Answer limited = null;
        for (Future<RawHttp.Answer> answer : answers) {
            RawHttp.Answer got = answer.get(30, TimeUnit.SECONDS);
            if (limited == null && got.status() == 429 && "rate-limited".equals(got.asResponse().code())) {
                limited = got;
            }
        }
        senders.shutdown();
        assertThat(limited).as("60 requests at once reach the limit of 25 a second").isNotNull();
        limited.expectProblem(429, "rate-limited");
        assertThat(limited.header("Retry-After")).isEqualTo("1");
    }

    @Test
    void orderReadsAreLimitedPerShopperOnEveryInstance() throws Exception {
        String token = api.mintShoppers(1).get(0);
        Api other = secondInstance();
        // At once, from 12 threads: one after another, a loaded machine answered them slower than the limit refills.
        ExecutorService readers = Executors.newFixedThreadPool(12);
        List<Future<Response>> answers = new ArrayList<>();
        for (int i = 0; i < 60; i++) {
            Api instance = i % 2 == 0 ? api : other;
            answers.add(readers.submit(() -> instance.get("/orders/123", "Authorization", "Bearer " + token)));
        }
        int limited = 0;
        for (Future<Response> future : answers) {
            Response answer = future.get();
            if (answer.status() == 429) {
                answer.expectProblem(429, "rate-limited");
                limited++;
            } else {
                answer.expectProblem(404, "order-not-found");
            }
        }
        readers.shutdown();
        assertThat(limited).as("60 reads against a shared limit of 20 a second").isGreaterThanOrEqualTo(20);
    }

    @Test
    void failedAdminLoginsAreLoggedAndLimitedPerAddressOnEveryInstance(CapturedOutput output) {
        Api other = secondInstance();
        String address = "203.0.113." + (1 + (int) (Math.random() * 250));
        String wrong = basic(TestServers.ADMIN_USER, "guess-" + address);
        for (int i = 0; i < 10; i++) {
            (i % 2 == 0 ? api : other).get("/admin/vouchers/1", "Authorization", wrong, "X-Forwarded-For", address)
                    .expectProblem(401, "admin-credentials-invalid");
        }
        // spent: the right password from that address is refused too, on both instances
        String right = basic(TestServers.ADMIN_USER, TestServers.ADMIN_PASSWORD);
        for (Api instance : List.of(api, other)) {
            Response refused = instance.get("/admin/shoppers", "Authorization", right, "X-Forwarded-For", address);
            refused.expectProblem(429, "rate-limited");
        }
        // another address is not affected
        assertThat(api.get("/actuator/metrics", "Authorization", right, "X-Forwarded-For", "198.51.100.7").status())
                .isEqualTo(200);
        assertThat(output.getAll()).contains("Admin login failed for user '" + TestServers.ADMIN_USER + "' from " + address)
                .doesNotContain("guess-" + address);
    }

    /**
     * Through Nginx, from addresses of this machine that Nginx does not exempt: the stranger's failures spend only
     * their own address's tries for that user name.
     */
    @Test
    void aStrangersFailedLoginsLockOutNeitherAnotherAddressNorAnotherUserName() {
        String run = "127.31." + (1 + (int) (Math.random() * 250));
        String stranger = run + ".1";
        String admin = run + ".2";
        String wrong = basic(TestServers.ADMIN_USER, "guess");
        String right = basic(TestServers.ADMIN_USER, TestServers.ADMIN_PASSWORD);
        for (int i = 0; i < 10; i++) {
            adminUi(stranger, wrong).expectProblem(401, "admin-credentials-invalid");
        }
        RawHttp.Answer spent = adminUi(stranger, right);
        spent.expectProblem(429, "rate-limited");
        assertThat(spent.header("Retry-After")).isEqualTo("60");

        assertThat(adminUi(admin, right).status()).as("the admin, from another address").isEqualTo(200);

        // a stranger at the admin's own address, guessing under another user name, spends only that name's tries
        for (int i = 0; i < 10; i++) {
            adminUi(admin, basic("root", "guess-" + i)).expectProblem(401, "admin-credentials-invalid");
        }
        adminUi(admin, basic("root", "guess")).expectProblem(429, "rate-limited");
        assertThat(adminUi(admin, right).status()).as("the admin's user name, from that address").isEqualTo(200);
    }

    private RawHttp.Answer adminUi(String from, String authorization) {
        return RawHttp.send(from, nginx.port(), "GET /admin/ui", null, "Authorization", authorization);
    }

    @Test
    void anEmptyUserOrAWrongPasswordIsInvalidCredentials() {
        String address = "192.0.2." + (1 + (int) (Math.random() * 250));
        for (String credentials : List.of(":" + TestServers.ADMIN_PASSWORD, TestServers.ADMIN_USER + ":",
                TestServers.ADMIN_USER + ":" + TestServers.ADMIN_PASSWORD + "x", "nobody:" + TestServers.ADMIN_PASSWORD)) {
            api.get("/admin/vouchers/1", "Authorization", "Basic " + Base64.getEncoder().encodeToString(credentials.getBytes()),
                    "X-Forwarded-For", address).expectProblem(401, "admin-credentials-invalid");
        }
    }

    private static String basic(String user, String password) {
        return "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes());
    }
}
