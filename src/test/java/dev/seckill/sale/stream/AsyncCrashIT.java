package dev.seckill.sale.stream;

import java.net.http.HttpClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import dev.seckill.salestate.VoucherKeys;
import dev.seckill.support.Api;
import dev.seckill.support.Api.Response;
import dev.seckill.support.AppProcess;
import dev.seckill.support.IntegrationTest;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.redisson.api.RStream;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.TestPropertySource;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Instance A (its own JVM) takes orders and consumes the stream while instance B (this test's
 * context) does the same; A is killed -9 while its consumer holds unacknowledged messages. B must
 * take them over and every accepted order must be in MySQL exactly once.
 */
@TestPropertySource(properties = {"seckill.mode=async", "seckill.web.instance-id=crash-b",
        "seckill.stream.claim-idle=2s"})
class AsyncCrashIT extends IntegrationTest {

    static final int ORDERS = 3_000;

    @Autowired
    RedissonClient redisson;

    @Autowired
    JdbcTemplate db;

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void anInstanceKilledInTheMiddleOfABatchLosesAndDoublesNothing() throws Exception {
        long voucherId = api.createVoucher(ORDERS);
        List<String> tokens = api.mintShoppers(ORDERS);
        Set<String> accepted = ConcurrentHashMap.newKeySet();
        AtomicInteger unanswered = new AtomicInteger();
        long pendingAtKill;

        try (AppProcess a = AppProcess.start("crash-a", "--seckill.mode=async", "--seckill.stream.claim-idle=2s",
                "--seckill.stream.batch-size=100")) {
            HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                    .connectTimeout(Duration.ofSeconds(2)).build();
            Api toA = new Api(a.port(), http);
            ExecutorService clients = Executors.newFixedThreadPool(64);
            List<Future<?>> sent = new ArrayList<>();
            for (String token : tokens) {
                sent.add(clients.submit(() -> {
                    Response response;
                    try {
                        response = toA.seckill(voucherId, token);
                    } catch (IllegalStateException connectionLost) {
                        // A is gone. Like Nginx, fail over to B; a request A took but never answered may
                        // be queued already, and B then answers already-ordered.
                        unanswered.incrementAndGet();
                        response = api.seckill(voucherId, token);
                    }
                    if (response.status() == 202) {
                        accepted.add(response.json().path("orderId").asString());
                    }
                }));
            }
            Awaitility.await("a third of the orders accepted").atMost(Duration.ofMinutes(1))
                    .pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(5))
                    .until(() -> accepted.size() >= ORDERS / 3);
            pendingAtKill = killWhileItsConsumerHoldsMessages(a, voucherId);
            for (Future<?> request : sent) {
                request.get();
            }
            clients.shutdown();
        }

        System.out.printf("Crash: %d accepted, %d requests lost with A (sent again to B), %d of A's messages "
                + "unacknowledged at the kill%n",
                accepted.size(), unanswered.get(), pendingAtKill);
        assertThat(pendingAtKill).as("A died holding messages").isPositive();
        api.awaitNoPendingOrders(voucherId, Duration.ofMinutes(1));

        List<String> inMySql = db.queryForList("SELECT CAST(id AS CHAR) FROM voucher_order WHERE voucher_id = ?",
                String.class, voucherId);
        assertThat(inMySql).as("every accepted order is in MySQL").containsAll(accepted);
        assertThat(inMySql).doesNotHaveDuplicates();
        JsonNode audit = api.audit(voucherId);
        assertThat(audit.path("duplicateBuyers").asLong()).isZero();
        assertThat(audit.path("failedOrders").asLong()).isZero();
        assertThat(audit.path("consistent").asBoolean()).as(audit.toString()).isTrue();
        // Every shopper ordered exactly once: accepted by A or B, or queued by A just before it died.
        assertThat(audit.path("orders").asLong()).isEqualTo(ORDERS);
        assertThat(accepted.size()).isGreaterThanOrEqualTo(ORDERS - unanswered.get());
    }

    /**
     * Waits until A's consumer has messages delivered and not yet acknowledged, then kills A (killed also
     * if that never happens, so the clients fail over to B), and returns how many A's consumer held.
     * Polled in this thread, every millisecond: the kill follows the sighting as closely as it can.
     */
    private long killWhileItsConsumerHoldsMessages(AppProcess a, long voucherId) throws InterruptedException {
        var stream = redisson.getStream(VoucherKeys.orders(voucherId), StringCodec.INSTANCE);
        try {
            Awaitility.await("A's consumer holds unacknowledged messages").atMost(Duration.ofMinutes(1))
                    .pollInSameThread().pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(1))
                    .until(() -> heldBy(stream, "crash-a-1") > 0);
        } finally {
            a.kill();
        }
        return heldBy(stream, "crash-a-1");
    }

    private static long heldBy(RStream<?, ?> stream, String consumer) {
        return stream.getPendingInfo("order-writers").getConsumerNames().getOrDefault(consumer, 0L);
    }

}
