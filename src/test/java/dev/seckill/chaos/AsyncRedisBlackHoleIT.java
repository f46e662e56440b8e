package dev.seckill.chaos;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import dev.seckill.support.Api;
import dev.seckill.support.Api.Response;
import dev.seckill.support.TcpProxy;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Redis stops answering without closing anything, on the async path, where no thread waits for an order's Redis
 * call: both instances reach Redis through a proxy that keeps every connection open and forwards nothing, and
 * shoppers ask through Nginx. Three orders of one voucher at once, so one instance gets two: the first waits for
 * its own call (Redisson's timeout and retries, about 20 s), the second queues behind it in the voucher's lane and
 * would wait for both, but is answered by its deadline (22 s). Each gets the instance's 503, not Nginx's 504 (its read
 * timeout is 30 s): {@code order-unconfirmed} naming the order for one whose call was sent (the black hole took it,
 * and a Redis that hangs may yet run it), {@code backend-unavailable} only for one still waiting in its lane (never
 * sent). Once Redis answers again, so does the next order, and nothing accepted is lost.
 */
// In the full suite (-Pchaos, over 2 min): in ./mvnw verify, MySqlOutageIT and SyncMySqlBlackHoleIT make a server a
// black hole through the same TcpProxy, and RedisChaosIT kills Redis -9 mid-burst.
@RunByScriptsChaos
class AsyncRedisBlackHoleIT {

    /** Nginx's proxy_read_timeout: an answer later than this is Nginx's 504, not ours. */
    static final long NGINX_READ_TIMEOUT_MILLIS = 30_000;

    @Test
    @Timeout(value = 4, unit = TimeUnit.MINUTES)
    void ordersAreAnswered503BeforeNginxGivesUpWhileRedisIsABlackHoleAndSellAgainAfter() throws Exception {
        try (ChaosCluster cluster = ChaosCluster.named("redis-black-hole", "seckill_chaos_redis_black_hole")
                .redisProxy().start()) {
            Api api = cluster.api();
            TcpProxy redis = cluster.redisProxy();
            long voucherId = api.createVoucher(10);
            List<String> shoppers = api.mintShoppers(6);
            api.seckill(voucherId, shoppers.get(0)).expectStatus(202);

            redis.blackHole();
            long start = System.nanoTime();
            // Three at once: Nginx takes turns, so one instance gets two, and the second of those queues.
            List<CompletableFuture<Response>> answers = shoppers.subList(1, 4).stream()
                    .map(shopper -> CompletableFuture.supplyAsync(() -> api.seckill(voucherId, shopper))).toList();
            int unconfirmed = 0;
            for (CompletableFuture<Response> answer : answers) {
                Response response = answer.get(60, TimeUnit.SECONDS);
                long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
                System.out.printf("Redis black hole, through Nginx: %d %s after %d ms (%s)%n", response.status(),
                        response.code(), millis, response.instanceId());
                assertThat(response.status()).isEqualTo(503);
                assertThat(response.code()).isIn("order-unconfirmed", "backend-unavailable");
                if ("order-unconfirmed".equals(response.code())) {
                    unconfirmed++;
                    assertThat(response.json().path("orderId").asString()).as("names the order").isNotEmpty();
                }
                assertThat(millis).as("answered before Nginx's read timeout").isLessThan(NGINX_READ_TIMEOUT_MILLIS);
            }
            assertThat(unconfirmed).as("the first call of each instance was sent into the black hole").isGreaterThanOrEqualTo(2);

            redis.forward();
            Awaitility.await("an order sells once Redis answers again").atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofSeconds(1))
                    .until(() -> {
                        // a try answered 503 may still have been taken once Redis read it: already-ordered then
                        Response next = api.seckill(voucherId, shoppers.get(4));
                        return next.status() == 202 || "already-ordered".equals(next.code());
                    });
            var audit = api.awaitNoPendingOrders(voucherId, Duration.ofSeconds(60));
            assertThat(audit.path("consistent").asBoolean()).as(audit.toString()).isTrue();
            assertThat(audit.path("orders").asLong()).as("the accepted orders, and none refused: %s", audit)
                    .isBetween(2L, 5L);
        }
    }
}
