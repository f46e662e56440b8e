package dev.seckill.sale.stream;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.LongPredicate;

import dev.seckill.sale.stream.StreamPoller.BatchHandler;
import dev.seckill.sale.stream.StreamPoller.Outcome;
import dev.seckill.salestate.QueuedOrder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.dao.CannotAcquireLockException;
import org.springframework.jdbc.CannotGetJdbcConnectionException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The poller's timing on a fake ticker that starts 5 s before a long overflows (System.nanoTime may
 * do that; a timer comparing absolute values instead of differences would stop there, as a wall-clock
 * timer would stop when the clock is stepped back).
 */
class StreamPollerTest {

    static final long START = Long.MAX_VALUE - TimeUnit.SECONDS.toNanos(5);
    static final StreamSettings SETTINGS = new StreamSettings("order-writers", 10, Duration.ofMillis(20),
            Duration.ofSeconds(30), 3, 1, "test");

    final FakeTicker ticker = new FakeTicker(START);
    final FakeConsumerStream stream = new FakeConsumerStream();
    /** "voucher@millis" for every batch handed to the handler. */
    final List<String> handled = new ArrayList<>();
    BatchHandler behaviour = this::settleAll;
    LongPredicate saleOver = voucherId -> false;
    final StreamPoller poller = new StreamPoller("test-1", stream, SETTINGS, ticker, v -> saleOver.test(v),
            (voucherId, batch) -> {
                handled.add(voucherId + "@" + millis());
                return behaviour.handle(voucherId, batch);
            });

    @Test
    void takesOverIdleMessagesAtStartAndThenEveryHalfClaimIdle() {
        stream.register(1);
        List<Long> claims = new ArrayList<>();
        for (int round = 0; round <= 400; round++) { // 40 s, across the overflow of the ticker
            long before = stream.callsOf("claim 1");
            poller.pollRound();
            if (stream.callsOf("claim 1") > before) {
                claims.add(millis());
            }
            ticker.advance(Duration.ofMillis(100));
        }
        assertThat(claims).containsExactly(0L, 15_000L, 30_000L);
    }

    @Test
    void aDeadConsumersMessagesAreTakenOverAndWritten() {
        stream.register(1);
        poller.pollRound();
        QueuedOrder orphan = new QueuedOrder("9-0", 1, 99, 7, 0);
        stream.pending.add(99L);
        stream.claimable.put(1L, new ArrayList<>(List.of(orphan)));
        runFor(Duration.ofSeconds(14), Duration.ofMillis(100));
        assertThat(stream.acknowledged).as("not before claimIdle / 2").isEmpty();
        runFor(Duration.ofSeconds(2), Duration.ofMillis(100));
        assertThat(stream.acknowledged).containsExactly(orphan);
    }

    @Test
    void aQuietStreamIsReadLessAndLessOftenDownToOnceASecond() {
        stream.register(1);
        List<Long> reads = new ArrayList<>();
        for (int round = 0; round <= 330; round++) {
            long before = stream.callsOf("new 1");
            poller.pollRound();
            if (stream.callsOf("new 1") > before) {
                reads.add(millis());
            }
            ticker.advance(Duration.ofMillis(10));
        }
        // idlePoll 20 ms doubled per empty read: 40, 80, 160, 320, 640, then capped at 1 s
        assertThat(reads).containsExactly(0L, 40L, 120L, 280L, 600L, 1240L, 2240L, 3240L);
    }

    @Test
    void ordersLeftForLaterAreReadAgainFromOwnPending200MsLater() {
        stream.accept(1, 10, 7);
        behaviour = (voucherId, batch) -> new Outcome(0, true); // the shopper's lock is held elsewhere
        runFor(Duration.ofMillis(450), Duration.ofMillis(10));
        assertThat(handled).containsExactly("1@0", "1@200", "1@400");
        assertThat(stream.callsOf("own 1")).as("own pending read at start, then only when due").isEqualTo(3);

        behaviour = this::settleAll;
        runFor(Duration.ofMillis(200), Duration.ofMillis(10));
        assertThat(stream.acknowledged).extracting(QueuedOrder::orderId).containsExactly(10L);
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2})
    void aFailureOnOneVoucherDoesNotSkipTheOthersInTheRound(long failing) {
        stream.accept(1, 10, 7);
        stream.accept(2, 20, 7);
        behaviour = (voucherId, batch) -> {
            if (voucherId == failing) {
                throw new IllegalStateException("something unexpected");
            }
            return settleAll(voucherId, batch);
        };
        poller.pollRound();
        assertThat(stream.acknowledged).extracting(QueuedOrder::voucherId).containsExactly(3 - failing);
        assertThat(stream.attempts).as("the poller never counts attempts").isEmpty();

        runFor(Duration.ofMillis(90), Duration.ofMillis(10));
        assertThat(handled).as("the failed voucher waits 100 ms").containsExactlyInAnyOrder(failing + "@0", (3 - failing) + "@0");

        behaviour = this::settleAll;
        runFor(Duration.ofMillis(20), Duration.ofMillis(10));
        assertThat(handled).contains(failing + "@100");
        assertThat(stream.acknowledged).extracting(QueuedOrder::orderId).containsExactlyInAnyOrder(10L, 20L);
    }

    @Test
    void contentionBacksOffThatVoucherOnlyAndDoublesItsWait() {
        stream.accept(1, 10, 7);
        stream.register(2);
        behaviour = (voucherId, batch) -> {
            if (voucherId == 1) {
                throw new CannotAcquireLockException("Lock wait timeout exceeded; try restarting transaction");
            }
            return settleAll(voucherId, batch);
        };
        runFor(Duration.ofMillis(50), Duration.ofMillis(10));
        stream.accept(2, 20, 8);
        runFor(Duration.ofMillis(1_550), Duration.ofMillis(10));

        assertThat(handled.stream().filter(h -> h.startsWith("1@")).toList())
                .containsExactly("1@0", "1@100", "1@300", "1@700", "1@1500");
        assertThat(stream.acknowledged).extracting(QueuedOrder::orderId).containsExactly(20L);
        assertThat(stream.attempts).isEmpty();
    }

    @Test
    void noGroupOnOneVoucherRecreatesItsGroupAndServesTheOthers() {
        stream.register(1);
        stream.register(2);
        poller.pollRound();
        stream.groups.remove(1L); // its stream or group was deleted
        stream.accept(2, 20, 8);
        stream.undelivered.computeIfAbsent(1L, v -> new java.util.ArrayDeque<>());
        ticker.advance(Duration.ofMillis(900));
        stream.accept(1, 10, 7); // XADD recreates the stream without the group
        stream.groups.remove(1L);

        poller.pollRound();
        assertThat(stream.groups).as("group recreated").contains(1L);
        assertThat(stream.acknowledged).extracting(QueuedOrder::orderId).containsExactly(20L);

        runFor(Duration.ofMillis(100), Duration.ofMillis(10));
        assertThat(stream.acknowledged).extracting(QueuedOrder::orderId).containsExactly(20L, 10L);
    }

    @Test
    void anOutageEndsTheRoundAndBacksOffDoublingUpToFiveSeconds() {
        stream.accept(1, 10, 7);
        behaviour = (voucherId, batch) -> {
            throw new CannotGetJdbcConnectionException("Failed to obtain JDBC Connection");
        };
        List<Long> waits = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            assertThatThrownBy(poller::pollRound).isInstanceOf(CannotGetJdbcConnectionException.class);
            long wait = TimeUnit.NANOSECONDS.toMillis(poller.outage());
            waits.add(wait);
            ticker.advance(Duration.ofMillis(wait));
        }
        assertThat(waits).containsExactly(100L, 200L, 400L, 800L, 1_600L, 3_200L, 5_000L, 5_000L);
        assertThat(stream.attempts).isEmpty();

        long ownReads = stream.callsOf("own 1");
        behaviour = this::settleAll;
        poller.pollRound();
        assertThat(stream.callsOf("own 1")).as("own messages first after an outage").isEqualTo(ownReads + 1);
        assertThat(stream.acknowledged).extracting(QueuedOrder::orderId).containsExactly(10L);

        stream.down = FakeConsumerStream.redisDown();
        ticker.advance(Duration.ofSeconds(2));
        assertThatThrownBy(poller::pollRound).isInstanceOf(org.redisson.client.RedisConnectionException.class);
        assertThat(TimeUnit.NANOSECONDS.toMillis(poller.outage())).as("reset by the good round").isEqualTo(100);
    }

    @Test
    void anEndedSaleWithAnEmptyStreamLeavesTheRegistry() {
        stream.register(1);
        stream.register(2);
        stream.register(3);
        stream.accept(3, 30, 7);
        behaviour = (voucherId, batch) -> new Outcome(0, true); // voucher 3's order stays pending
        saleOver = voucherId -> voucherId != 2;
        Set<Long> seen = new HashSet<>();
        for (int round = 0; round < 300; round++) {
            poller.pollRound();
            seen.addAll(poller.vouchers());
            ticker.advance(Duration.ofMillis(10));
        }
        assertThat(seen).containsExactlyInAnyOrder(1L, 2L, 3L);
        assertThat(poller.vouchers()).containsExactlyInAnyOrder(2L, 3L);
        assertThat(stream.registered).containsExactlyInAnyOrder(2L, 3L);
    }

    private Outcome settleAll(long voucherId, List<QueuedOrder> batch) {
        stream.acknowledge(voucherId, batch);
        return new Outcome(batch.size(), false);
    }

    private void runFor(Duration duration, Duration step) {
        for (long t = 0; t < duration.toNanos(); t += step.toNanos()) {
            poller.pollRound();
            ticker.advance(step);
        }
    }

    private long millis() {
        return TimeUnit.NANOSECONDS.toMillis(ticker.nanos() - START);
    }
}
