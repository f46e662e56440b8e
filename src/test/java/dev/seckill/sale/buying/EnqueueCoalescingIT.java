package dev.seckill.sale.buying;

import dev.seckill.sale.failover.ReplicaSettings;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Collectors;

import dev.seckill.SeckillSettings;
import dev.seckill.sale.ticket.TicketSettings;
import dev.seckill.sale.SaleMeters;
import dev.seckill.sale.buying.PurchaseDecision.Outcome;
import dev.seckill.sale.failover.AcceptedOrdersJournal;
import dev.seckill.salestate.VoucherKeys;
import dev.seckill.support.RedisServer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.client.RedisException;
import org.redisson.config.Config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Shared enqueue calls against a real Redis of the test's own: concurrent orders really share calls (Redis
 * counts fewer EVALSHA than orders), and the answers are those of one call per order: never more accepted
 * than the stock, one order per shopper, a repeat told which order is theirs, nothing queued twice.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class EnqueueCoalescingIT {

    static RedisServer redis;
    static RedissonClient redisson;
    static OrderEnqueue stream;
    static SimpleMeterRegistry meters;

    @BeforeAll
    static void ownRedis() throws Exception {
        redis = RedisServer.start(null);
        Config config = new Config();
        config.useSingleServer().setAddress("redis://127.0.0.1:" + redis.port()).setTimeout(1000).setRetryAttempts(1)
                .setRetryDelay(attempt -> Duration.ofMillis(200));
        redisson = Redisson.create(config);
        meters = new SimpleMeterRegistry();
        stream = new OrderEnqueue(new PurchaseDecision(redisson), new ReplicaSettings(0, Duration.ofSeconds(1)),
                new EnqueueSettings(100, 1, Duration.ofSeconds(1), Duration.ofSeconds(2)),
                new SaleMeters(meters, new SeckillSettings(SeckillSettings.Mode.ASYNC)),
                voucherId -> PurchaseDecision.Tickets.NOT_ASKED,
                new AcceptedOrdersJournal(Duration.ofMinutes(1), 100_000, System::nanoTime), redisson);
    }

    @AfterAll
    static void stop() throws Exception {
        if (redisson != null) {
            redisson.shutdown();
        }
        if (redis != null) {
            redis.close();
        }
    }

    @Test
    void concurrentOrdersShareCallsAndNeverTakeMoreThanTheStock() throws Exception {
        long voucherId = 101;
        int stock = 150;
        int shoppers = 600;
        redis.cli("set", VoucherKeys.stock(voucherId), Integer.toString(stock));
        redis.cli("config", "resetstat");
        double callsBefore = counted("seckill.redis.enqueue.calls");
        double ordersBefore = counted("seckill.redis.enqueue.orders");

        List<OrderEnqueue.Enqueue> answers = concurrently(shoppers,
                i -> () -> stream.enqueue(voucherId, 1 + i, 10_000 + i, 0, null));

        Map<Outcome, Long> outcomes = answers.stream()
                .collect(Collectors.groupingBy(OrderEnqueue.Enqueue::outcome, Collectors.counting()));
        assertThat(outcomes).isEqualTo(Map.of(Outcome.ACCEPTED, (long) stock,
                Outcome.SOLD_OUT, (long) (shoppers - stock)));
        assertThat(redis.cli("get", VoucherKeys.stock(voucherId))).isEqualTo("0");
        assertThat(redis.cli("xlen", VoucherKeys.orders(voucherId))).isEqualTo(Integer.toString(stock));
        assertThat(redis.cli("scard", VoucherKeys.buyers(voucherId))).isEqualTo(Integer.toString(stock));
        assertThat(redis.cli("hlen", VoucherKeys.pending(voucherId))).isEqualTo(Integer.toString(stock));

        long evalsha = calls("evalsha");
        assertThat(counted("seckill.redis.enqueue.orders") - ordersBefore).isEqualTo(shoppers);
        assertThat(evalsha).as("calls Redis ran for %d orders", shoppers)
                .isEqualTo((long) (counted("seckill.redis.enqueue.calls") - callsBefore)).isLessThan(shoppers / 2);
    }

    @Test
    void aShopperBuyingManyTimesAtOnceGetsOneOrderAndIsToldWhichOneEveryOtherTime() throws Exception {
        long voucherId = 102;
        redis.cli("set", VoucherKeys.stock(voucherId), "10");
        long shopper = 7;

        List<OrderEnqueue.Enqueue> answers = concurrently(80,
                i -> () -> stream.enqueue(voucherId, shopper, 20_000 + i, 0, null));

        List<OrderEnqueue.Enqueue> accepted = answers.stream()
                .filter(answer -> answer.outcome() == Outcome.ACCEPTED).toList();
        assertThat(accepted).hasSize(1);
        String theOrder = redis.cli("hget", VoucherKeys.shopperOrders(voucherId), Long.toString(shopper));
        assertThat(answers).filteredOn(answer -> answer.outcome() != Outcome.ACCEPTED).hasSize(79)
                .allSatisfy(answer -> {
                    assertThat(answer.outcome()).isEqualTo(Outcome.ALREADY_BOUGHT);
                    assertThat(Long.toString(answer.existingOrderId())).isEqualTo(theOrder);
                });
        assertThat(redis.cli("get", VoucherKeys.stock(voucherId))).isEqualTo("9");
        assertThat(redis.cli("xlen", VoucherKeys.orders(voucherId))).isEqualTo("1");
    }

    @Test
    void aRedisThatForgotTheScriptGetsItAgainWithoutLosingAnOrder() throws Exception {
        long voucherId = 103;
        redis.cli("set", VoucherKeys.stock(voucherId), "1000");
        redis.cli("script", "flush");

        List<OrderEnqueue.Enqueue> answers = concurrently(200,
                i -> () -> stream.enqueue(voucherId, 1 + i, 30_000 + i, 0, null));

        assertThat(answers).extracting(OrderEnqueue.Enqueue::outcome).containsOnly(Outcome.ACCEPTED);
        assertThat(redis.cli("xlen", VoucherKeys.orders(voucherId))).isEqualTo("200");
    }

    @Test
    void fencedOrUncachedVoucherRefusesEveryOrderOfTheCallWithoutTakingAnything() throws Exception {
        long fenced = 104;
        redis.cli("set", VoucherKeys.stock(fenced), "10");
        redis.cli("set", VoucherKeys.resetFence(fenced), "1");
        assertThat(concurrently(40, i -> () -> stream.enqueue(fenced, 1 + i, 40_000 + i, 0, null)))
                .extracting(OrderEnqueue.Enqueue::outcome).containsOnly(Outcome.RESETTING);
        assertThat(redis.cli("get", VoucherKeys.stock(fenced))).isEqualTo("10");

        long uncached = 105;
        assertThat(concurrently(40, i -> () -> stream.enqueue(uncached, 1 + i, 50_000 + i, 0, null)))
                .extracting(OrderEnqueue.Enqueue::outcome).containsOnly(Outcome.NOT_CACHED);
        assertThat(redis.cli("exists", VoucherKeys.orders(uncached))).isEqualTo("0");
    }

    @Test
    void aRedisThatStopsAnsweringFailsEveryWaitingOrderAsUnknownNoneHangs() throws Exception {
        long voucherId = 106;
        redis.cli("set", VoucherKeys.stock(voucherId), "1000");
        redis.pause();
        try {
            ExecutorService pool = Executors.newFixedThreadPool(20);
            try {
                List<Future<OrderEnqueue.Enqueue>> waiting = new ArrayList<>();
                for (int i = 0; i < 20; i++) {
                    long shopper = 1 + i;
                    waiting.add(pool.submit(() -> stream.enqueue(voucherId, shopper, 60_000 + shopper, 0, null)));
                }
                for (Future<OrderEnqueue.Enqueue> order : waiting) {
                    // Each was sent (the lane sends the next call when one fails), and a paused Redis may run it
                    // when it resumes: none can say it was not taken.
                    assertThatThrownBy(() -> order.get(30, TimeUnit.SECONDS))
                            .hasCauseInstanceOf(PurchaseAttempts.OutcomeUnknown.class).hasRootCauseInstanceOf(RedisException.class);
                }
            } finally {
                pool.shutdownNow();
            }
        } finally {
            redis.resume();
        }
        // and the lane is not stuck afterwards
        assertThat(stream.enqueue(voucherId, 999, 69_999, 0, null).outcome()).isEqualTo(Outcome.ACCEPTED);
    }

    private static List<OrderEnqueue.Enqueue> concurrently(int orders, Function<Integer, Callable<OrderEnqueue.Enqueue>> order)
            throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(64);
        try {
            List<Callable<OrderEnqueue.Enqueue>> tasks = new ArrayList<>();
            for (int i = 0; i < orders; i++) {
                tasks.add(order.apply(i));
            }
            List<OrderEnqueue.Enqueue> answers = new ArrayList<>();
            for (Future<OrderEnqueue.Enqueue> answer : pool.invokeAll(tasks)) {
                answers.add(answer.get());
            }
            return answers;
        } finally {
            pool.shutdownNow();
        }
    }

    private static long calls(String command) throws Exception {
        return redis.cli("info", "commandstats").lines().filter(line -> line.startsWith("cmdstat_" + command + ":"))
                .map(line -> Long.parseLong(line.replaceAll("^[^:]*:calls=(\\d+),.*", "$1"))).findFirst().orElse(0L);
    }

    /** What the sale's meters count, as a scrape reads it. */
    private static double counted(String meter) {
        return meters.get(meter).functionCounter().count();
    }
}
