package dev.seckill.sale.buying;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import dev.seckill.support.Api;
import dev.seckill.support.Api.Response;
import dev.seckill.support.Instances;
import dev.seckill.support.TcpProxy;
import dev.seckill.support.TestServers;
import dev.seckill.support.Tokens;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a shopper is told when the purchase call fails, on the async path, with the instance reaching Redis through a
 * proxy the test controls. A call whose script may have run (here: it ran, and its answer was lost on the way back)
 * cannot know whether the order was taken, so it must not say "nothing taken" (backend-unavailable): it names the
 * order and says it is unconfirmed, and the order then stands. A call that never reached Redis (no connection could
 * be made) took nothing, and says backend-unavailable.
 */
class LostPurchaseAnswerIT {

    private static TcpProxy redis;
    private static ConfigurableApplicationContext app;
    private static Api api;

    @BeforeAll
    static void start() throws Exception {
        Map<String, String> servers = TestServers.properties();
        redis = new TcpProxy(servers.get("spring.data.redis.host"), Integer.parseInt(servers.get("spring.data.redis.port")));
        // Redisson's timeout for an answer, shorter than its 3 s: each failed call takes seconds, not tens of them.
        app = Instances.start("async", "lost-answer-it", Map.of("spring.data.redis.host", "127.0.0.1",
                "spring.data.redis.port", Integer.toString(redis.port()), "spring.data.redis.timeout", "1s"));
        api = new Api(Integer.parseInt(app.getEnvironment().getRequiredProperty("local.server.port")));
    }

    @AfterAll
    static void stop() throws Exception {
        Instances.closeAll(app);
        if (redis != null) {
            redis.close();
        }
    }

    @AfterEach
    void forwardAgain() throws Exception {
        redis.forward();
    }

    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void aPurchaseWhoseAnswerWasLostIsAnsweredUnconfirmedNamingTheOrderThatThenStands() throws Exception {
        long voucherId = api.createVoucher(5);
        List<String> shoppers = api.mintShoppers(2);
        api.seckill(voucherId, shoppers.get(0)).expectStatus(202);

        redis.dropReplies();
        Response lost = api.seckill(voucherId, shoppers.get(1));
        redis.forward();

        System.out.printf("A purchase whose answer was lost: %d %s%n", lost.status(), lost.body());
        lost.expectProblem(503, "order-unconfirmed");
        String orderId = lost.json().path("orderId").asString();
        assertThat(orderId).as("the answer names the order: %s", lost.body()).isNotEmpty();

        JsonNode audit = api.awaitNoPendingOrders(voucherId, Duration.ofSeconds(60));
        assertThat(app.getBean(JdbcTemplate.class).queryForList(
                "SELECT CAST(id AS CHAR) FROM voucher_order WHERE voucher_id = ? AND user_id = ?", String.class, voucherId,
                Tokens.shopperId(shoppers.get(1))))
                .as("the order the shopper was told about is in MySQL, once").containsExactly(orderId);
        assertThat(audit.path("consistent").asBoolean()).as(audit.toString()).isTrue();
    }

    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void aPurchaseThatNeverReachedRedisIsAnsweredBackendUnavailable() throws Exception {
        long voucherId = api.createVoucher(5);
        String shopper = api.mintShoppers(1).get(0);

        redis.cut();
        // On purpose: Redisson sees its connections close before the purchase, so none is written to.
        Thread.sleep(1_000);
        Response refused = api.seckill(voucherId, shopper);
        redis.restore();

        System.out.printf("A purchase with no Redis to connect to: %d %s%n", refused.status(), refused.body());
        refused.expectProblem(503, "backend-unavailable");
        Awaitility.await("Redis answers again").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(500))
                .until(() -> api.seckill(voucherId, shopper).status() == 202);
        assertThat(api.awaitNoPendingOrders(voucherId, Duration.ofSeconds(60)).path("orders").asLong()).isEqualTo(1);
    }
}
