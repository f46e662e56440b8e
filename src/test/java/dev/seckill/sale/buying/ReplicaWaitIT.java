package dev.seckill.sale.buying;

import dev.seckill.sale.failover.ReplicaSettings;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import dev.seckill.SeckillSettings;
import dev.seckill.sale.ticket.TicketSettings;
import dev.seckill.sale.SaleMeters;
import dev.seckill.sale.buying.PurchaseDecision.Decision;
import dev.seckill.sale.buying.PurchaseDecision.Outcome;
import dev.seckill.sale.failover.AcceptedOrdersJournal;
import dev.seckill.salestate.VoucherKeys;
import dev.seckill.support.Api;
import dev.seckill.support.Instances;
import dev.seckill.support.RedisServer;
import dev.seckill.support.TestServers;
import dev.seckill.support.Tokens;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.redisson.api.RedissonClient;
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The replica opt-in ({@code seckill.redis.wait-replicas}) against a real local replica ({@code --replicaof}),
 * which the tests pause (docker pause): it keeps its connection to the master and acknowledges nothing, as a
 * replica stuck behind a slow link or a long pause would.
 * <ul>
 *   <li>the enqueue call: one EVALSHA and no WAIT by default; EVALSHA and WAIT in one batch with the opt-in;
 *       an accepted order the replica did not confirm in time is UNCONFIRMED, and stays in the master;</li>
 *   <li>through the API: 202 only once the replica has the order; with the replica paused, 503
 *       {@code order-unconfirmed} naming the order after the wait, and once the replica resumes the order
 *       is on it and in MySQL exactly once.</li>
 * </ul>
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class ReplicaWaitIT {

    private static final OrderEnqueue.Enqueue CONFIRMED = new OrderEnqueue.Enqueue(Decision.of(Outcome.ACCEPTED), false);

    static final Duration WAIT = Duration.ofSeconds(2);
    static final String DB_URL = TestServers.properties().get("spring.datasource.url")
            .replace("/seckill_test", "/seckill_replica_wait");

    static RedisServer master;
    static RedisServer replica;
    static ConfigurableApplicationContext app;
    static Api api;

    @BeforeAll
    static void replicatedRedisAndAnInstanceThatWaitsForIt() throws Exception {
        master = RedisServer.start(null);
        replica = RedisServer.startReplicaOf(master);
        app = Instances.start("async", "replica-wait", Map.of("spring.data.redis.port", Integer.toString(master.port()),
                "spring.data.redis.database", "0", "spring.datasource.url", DB_URL,
                "seckill.redis.wait-replicas", "1", "seckill.redis.wait-timeout", WAIT.toMillis() + "ms"));
        api = new Api(Instances.port(app));
        // the first order of a fresh instance is slow (JIT, pools): not the one the tests time
        long warmUp = api.createVoucher(1);
        api.seckill(warmUp, api.mintShoppers(1).get(0)).expectStatus(202);
    }

    @AfterAll
    static void stop() throws Exception {
        if (app != null) {
            app.close();
        }
        for (AutoCloseable closing : new AutoCloseable[] {replica, master}) {
            if (closing != null) {
                closing.close();
            }
        }
    }

    @Test
    void theDefaultSendsOneEvalshaAndNoWaitTheOptInBothInOneBatch() throws Exception {
        try (RedisServer ownMaster = RedisServer.start(null); RedisServer ownReplica = RedisServer.startReplicaOf(ownMaster)) {
            RedissonClient redisson = ownMaster.client();
            try {
                long voucherId = 42;
                ownMaster.cli("set", VoucherKeys.stock(voucherId), "10");
                OrderEnqueue plain = stream(redisson, 0);
                OrderEnqueue waiting = stream(redisson, 1);

                ownMaster.cli("config", "resetstat");
                assertThat(plain.enqueue(voucherId, 1, 1001, 0, null).outcome()).isEqualTo(Outcome.ACCEPTED);
                assertThat(ownMaster.commandCalls("evalsha")).as("EVALSHA by default").isEqualTo(1);
                assertThat(ownMaster.commandCalls("wait")).as("WAIT by default").isZero();

                ownMaster.cli("config", "resetstat");
                assertThat(waiting.enqueue(voucherId, 2, 1002, 0, null)).isEqualTo(CONFIRMED);
                assertThat(ownMaster.commandCalls("evalsha")).as("EVALSHA with the opt-in").isEqualTo(1);
                assertThat(ownMaster.commandCalls("wait")).as("WAIT with the opt-in").isEqualTo(1);
                assertThat(ownReplica.cli("sismember", VoucherKeys.buyers(voucherId), "2")).as("on the replica").isEqualTo("1");

                // a Redis that forgot the script: loaded again, within the batch path too
                ownMaster.cli("script", "flush");
                assertThat(waiting.enqueue(voucherId, 3, 1003, 0, null)).isEqualTo(CONFIRMED);

                ownReplica.pause();
                try {
                    long started = System.nanoTime();
                    OrderEnqueue.Enqueue unconfirmed = waiting.enqueue(voucherId, 4, 1004, 0, null);
                    assertThat(unconfirmed.outcome()).as("accepted, replica paused").isEqualTo(Outcome.ACCEPTED);
                    assertThat(unconfirmed.unconfirmed()).as("not confirmed by the paused replica").isTrue();
                    assertThat(Duration.ofNanos(System.nanoTime() - started)).as("waited for the replica")
                            .isGreaterThanOrEqualTo(Duration.ofMillis(900));
                    assertThat(ownMaster.cli("sismember", VoucherKeys.buyers(voucherId), "4")).as("in the master").isEqualTo("1");
                    assertThat(ownMaster.cli("hget", VoucherKeys.pending(voucherId), "1004")).as("pending").isEqualTo("4");
                    // refusals say what the script said, confirmed or not
                    assertThat(waiting.enqueue(voucherId, 4, 1005, 0, null).outcome())
                            .isEqualTo(Outcome.ALREADY_BOUGHT);
                } finally {
                    ownReplica.resume();
                }
                Awaitility.await("the replica catches up").atMost(Duration.ofSeconds(10))
                        .until(() -> "4".equals(ownReplica.cli("hget", VoucherKeys.pending(voucherId), "1004")));
                assertThat(ownMaster.cli("xlen", VoucherKeys.orders(voucherId))).as("queued once each").isEqualTo("4");
            } finally {
                redisson.shutdown();
            }
        }
    }

    @Test
    void answers202OnlyOnceTheReplicaHasTheOrder() throws Exception {
        long voucherId = api.createVoucher(10);
        String token = api.mintShoppers(1).get(0);
        String shopper = Long.toString(Tokens.shopperId(token));

        CompletableFuture<Api.Response> answer;
        replica.pause();
        try {
            answer = CompletableFuture.supplyAsync(() -> api.seckill(voucherId, token));
            // without the WAIT the 202 would be back within milliseconds
            // atMost leaves room for a loaded machine's late polls, still below the 2 s WAIT that would end it.
            Awaitility.await("no answer while the replica is paused").during(Duration.ofMillis(800))
                    .atMost(Duration.ofMillis(1_800)).until(() -> !answer.isDone());
        } finally {
            replica.resume();
        }
        Api.Response response = answer.get(WAIT.toSeconds() + 5, TimeUnit.SECONDS);
        String onReplica = replica.cli("sismember", VoucherKeys.buyers(voucherId), shopper);
        response.expectStatus(202);
        assertThat(onReplica).as("the replica has the order when the shopper hears 202").isEqualTo("1");
    }

    @Test
    void aReplicaThatDoesNotConfirmInTimeGetsOrderUnconfirmedAndTheOrderStandsOnceItResumes() throws Exception {
        long voucherId = api.createVoucher(10);
        List<String> tokens = api.mintShoppers(1);
        String token = tokens.get(0);
        String shopper = Long.toString(Tokens.shopperId(token));

        Api.Response response;
        Api.Response lookup;
        Api.Response retry;
        long tookMillis;
        replica.pause();
        try {
            long started = System.nanoTime();
            response = api.seckill(voucherId, token);
            tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
            // what the shopper is told to do: look the order up; a retry names the same order
            lookup = api.get("/orders?voucherId=" + voucherId, "Authorization", "Bearer " + token);
            retry = api.seckill(voucherId, token);
        } finally {
            replica.resume();
        }
        response.expectProblem(503, "order-unconfirmed");
        String orderId = response.json().path("orderId").asString();
        assertThat(orderId).as("the answer names the order").isNotBlank();
        assertThat(response.json().path("detail").asString()).contains("GET /orders?voucherId=" + voucherId);
        assertThat(tookMillis).as("answered after the wait, not before, not much after")
                .isBetween(WAIT.toMillis() - 100, WAIT.toMillis() + 3_000);
        lookup.expectStatus(200);
        assertThat(lookup.json().path("orderId").asString()).isEqualTo(orderId);
        retry.expectProblem(409, "already-ordered");
        assertThat(retry.json().path("orderId").asString()).isEqualTo(orderId);

        Awaitility.await("the resumed replica catches up").atMost(Duration.ofSeconds(10))
                .until(() -> "1".equals(replica.cli("sismember", VoucherKeys.buyers(voucherId), shopper)));
        JsonNode audit = api.awaitNoPendingOrders(voucherId, Duration.ofSeconds(30));
        assertThat(audit.path("orders").asLong()).as("the order, once, in MySQL: %s", audit).isOne();
        assertThat(audit.path("failedOrders").asLong()).isZero();
        assertThat(audit.path("redisAgrees").asBoolean()).as("%s", audit).isTrue();
        assertThat(audit.path("consistent").asBoolean()).as("%s", audit).isTrue();
        Api.Response confirmed = api.get("/orders/" + orderId, "Authorization", "Bearer " + token).expectStatus(200);
        assertThat(confirmed.json().path("status").asString()).isEqualTo("AWAITING_PAYMENT");
    }

    private static OrderEnqueue stream(RedissonClient redisson, int waitReplicas) {
        return new OrderEnqueue(new PurchaseDecision(redisson), new ReplicaSettings(waitReplicas, Duration.ofSeconds(1)),
                new EnqueueSettings(100), new SaleMeters(new SimpleMeterRegistry(), new SeckillSettings(SeckillSettings.Mode.ASYNC)),
                voucherId -> PurchaseDecision.Tickets.NOT_ASKED,
                new AcceptedOrdersJournal(Duration.ofMinutes(1), 100_000, System::nanoTime), redisson);
    }
}
