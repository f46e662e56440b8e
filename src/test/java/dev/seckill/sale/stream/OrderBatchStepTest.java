package dev.seckill.sale.stream;

import dev.seckill.sale.OrderBacklogs;

import dev.seckill.order.GiveUpLookup;
import dev.seckill.sale.PendingBacklog;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import dev.seckill.SeckillSettings;
import dev.seckill.salestate.HeldLock;
import dev.seckill.salestate.SeckillLocks;
import dev.seckill.sale.SaleMeters;
import dev.seckill.order.NewOrderWriter;
import dev.seckill.order.GiveUpLookup.Found;
import dev.seckill.sale.OrderBacklogs.Reading;
import dev.seckill.salestate.QueuedOrder;
import dev.seckill.sale.UnitsBack;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.mockito.InOrder;
import org.redisson.client.RedisConnectionException;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.dao.DuplicateKeyException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyList;
import static org.mockito.ArgumentMatchers.anyLong;
import static org.mockito.ArgumentMatchers.argThat;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.atLeastOnce;
import static org.mockito.Mockito.inOrder;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

/** The batch step's bookkeeping around the writer: what is acknowledged, split, counted. */
class OrderBatchStepTest {

    static final StreamSettings SETTINGS = new StreamSettings("order-writers", 10, Duration.ofMillis(20),
            Duration.ofSeconds(30), 3, 1, "test");

    final FakeConsumerStream stream = new FakeConsumerStream();
    final OrderFailurePolicyTest.FakeMySql mysql = new OrderFailurePolicyTest.FakeMySql();
    final SeckillLocks locks = mock(SeckillLocks.class);
    final NewOrderWriter writer = mock(NewOrderWriter.class);
    final ApplicationEventPublisher events = mock(ApplicationEventPublisher.class);
    final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    final SaleMeters meters = new SaleMeters(registry, new SeckillSettings(SeckillSettings.Mode.ASYNC));
    final OrderBatchStep step = new OrderBatchStep(locks, stream, writer, new OrderFailurePolicy(stream, mysql, locks, SETTINGS),
            events, meters, new PendingBacklog(vouchers -> new Reading(Set.of(), Map.of()), registry,
                    Clock.systemUTC(), System::nanoTime));

    final HeldLock shared = mock(HeldLock.class);
    final HeldLock exclusive = mock(HeldLock.class);

    @BeforeEach
    void theVouchersOrderWritesAreFree() {
        when(locks.tryLockOrderWrites(anyLong())).thenReturn(Optional.of(shared));
        when(locks.lockOrderWritesExclusively(anyLong())).thenReturn(Optional.of(exclusive));
    }

    @Test
    void anAcknowledgementLostAfterTheCommitCountsNoAttemptAndTheRedeliveryAcknowledges() {
        QueuedOrder order = stream.accept(1, 10, 7);
        stream.nextAckFailure = new RedisConnectionException("Unable to send command");

        when(writer.persist(eq(1L), anyList())).thenReturn(Set.of()); // committed
        assertThatThrownBy(() -> step.handle(1, List.of(order))).isInstanceOf(RedisConnectionException.class);
        assertThat(stream.attempts).isEmpty();
        assertThat(stream.pending).contains(10L);

        // redelivered: the writer finds it in MySQL and writes nothing; it is acknowledged now
        when(writer.persist(eq(1L), anyList())).thenReturn(Set.of(10L));
        assertThat(step.handle(1, List.of(order))).isEqualTo(new StreamPoller.Outcome(1, false));
        assertThat(stream.acknowledged).containsExactly(order);
        assertThat(stream.compensated).isEmpty();
        // written once: the redelivery wrote nothing; both writes were committed batches
        assertThat(count("seckill.orders.written")).isEqualTo(1);
        assertThat(registry.get("seckill.mysql.write").timer().count()).isEqualTo(2);
    }

    @Test
    void aBatchSpoiltByOneOrderIsSplitAndOnlyThatOrderCounts() {
        QueuedOrder good = stream.accept(1, 10, 7);
        QueuedOrder bad = stream.accept(1, 11, 8);
        when(writer.persist(eq(1L), anyList())).thenAnswer(call -> {
            List<NewOrderWriter.NewOrder> orders = call.getArgument(1);
            if (orders.stream().anyMatch(o -> o.orderId() == 11)) {
                throw new DuplicateKeyException("Duplicate entry '8-1' for key 'uk_voucher_order_user_voucher'");
            }
            return Set.of();
        });

        assertThat(step.handle(1, List.of(good, bad))).isEqualTo(new StreamPoller.Outcome(1, true));
        assertThat(stream.acknowledged).containsExactly(good);
        assertThat(stream.attempts).containsOnlyKeys(bad.messageId());

        step.handle(1, List.of(bad));
        mysql.found = Found.NOTHING;
        assertThat(step.handle(1, List.of(bad))).isEqualTo(new StreamPoller.Outcome(1, false));
        assertThat(stream.compensated).containsExactly(bad);
        verify(events).publishEvent(new UnitsBack(1L));
        assertThat(count("seckill.orders.written")).isEqualTo(1);
        assertThat(registry.get("seckill.orders.given-up").tag("voucher", "1").tag("reason", "compensated").counter()
                .count()).isEqualTo(1);
        assertThat(meters.counts().get(1L).givenUp()).containsExactly(Map.entry("compensated", 1L));
    }

    @Test
    void aDuplicateOfAConfirmedOrderReturnsNoUnitSoNothingIsLeftToSell() {
        QueuedOrder bad = stream.accept(1, 11, 8);
        when(writer.persist(eq(1L), anyList())).thenThrow(new DuplicateKeyException("Duplicate entry '8-1'"));
        mysql.found = Found.OTHER_ORDER;
        for (int attempt = 0; attempt < 3; attempt++) {
            step.handle(1, List.of(bad));
        }
        assertThat(stream.duplicates).containsExactly(bad);
        verify(events, never()).publishEvent(any(UnitsBack.class));
        assertThat(registry.get("seckill.orders.given-up").tag("reason", "duplicate").counter().count()).isEqualTo(1);
        assertThat(count("seckill.orders.written")).isZero();
    }

    @Test
    void ordersNoLongerPendingAreNotWritten() {
        QueuedOrder mine = stream.accept(1, 10, 7);
        QueuedOrder settledBefore = stream.accept(1, 12, 9);
        stream.pending.remove(12L);
        when(writer.persist(eq(1L), anyList())).thenReturn(Set.of());

        assertThat(step.handle(1, List.of(mine, settledBefore))).isEqualTo(new StreamPoller.Outcome(1, false));
        verify(writer).persist(eq(1L), argThat(orders -> orders.size() == 1 && orders.get(0).orderId() == 10));
        assertThat(stream.acknowledged).containsExactly(mine);
        verify(shared).close();
    }

    @Test
    void aBatchWhileAGiveUpHoldsTheVoucherIsLeftWholeForLater() {
        QueuedOrder order = stream.accept(1, 10, 7);
        when(locks.tryLockOrderWrites(1L)).thenReturn(Optional.empty());

        assertThat(step.handle(1, List.of(order))).isEqualTo(new StreamPoller.Outcome(0, true));
        verify(writer, never()).persist(anyLong(), anyList());
        assertThat(stream.acknowledged).isEmpty();
        assertThat(stream.pending).contains(10L);
    }

    @Test
    void aGiveUpWaitsUntilTheBatchReleasedItsSharedLockThenDecidesAlone() {
        QueuedOrder poison = stream.accept(1, 10, 7);
        when(writer.persist(eq(1L), anyList())).thenThrow(new DuplicateKeyException("uk_user_voucher"));
        for (int attempt = 1; attempt < SETTINGS.maxAttempts(); attempt++) {
            step.handle(1, List.of(poison));
        }
        step.handle(1, List.of(poison));

        InOrder order = inOrder(shared, locks, exclusive);
        order.verify(shared, atLeastOnce()).close();
        order.verify(locks).lockOrderWritesExclusively(1L);
        order.verify(exclusive).close();
        assertThat(stream.compensated).containsExactly(poison);
    }

    @Test
    void aGiveUpThatCannotHaveTheVoucherAloneCompensatesNothingAndIsTriedLater() {
        QueuedOrder poison = stream.accept(1, 10, 7);
        when(writer.persist(eq(1L), anyList())).thenThrow(new DuplicateKeyException("uk_user_voucher"));
        when(locks.lockOrderWritesExclusively(1L)).thenReturn(Optional.empty());
        for (int attempt = 1; attempt <= SETTINGS.maxAttempts() + 1; attempt++) {
            assertThat(step.handle(1, List.of(poison))).isEqualTo(new StreamPoller.Outcome(0, true));
        }
        assertThat(stream.compensated).isEmpty();
        assertThat(stream.pending).contains(10L);
        assertThat(mysql.lookups).isZero();
    }

    private double count(String counter) {
        return registry.get(counter).tag("voucher", "1").counter().count();
    }
}
