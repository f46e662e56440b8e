package dev.seckill.sale.buying;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.OptionalLong;

import dev.seckill.id.IdGenerator;
import dev.seckill.order.OwnOrders;
import dev.seckill.order.SyncOrderCreation;
import dev.seckill.ratelimit.ShopperRateLimits;
import dev.seckill.sale.PlacedOrder;
import dev.seckill.sale.SaleMeters;
import dev.seckill.sale.reconcile.StreamReconciler;
import dev.seckill.salestate.HeldLock;
import dev.seckill.salestate.SeckillLocks;
import dev.seckill.salestate.StockCache;
import dev.seckill.salestate.SyncUnits;
import dev.seckill.voucher.SaleWindow;
import dev.seckill.voucher.SaleWindowCache;
import dev.seckill.refusal.Reason;
import dev.seckill.refusal.Refusal;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.redisson.client.RedisResponseTimeoutException;
import org.redisson.client.RedisTimeoutException;
import org.springframework.jdbc.CannotGetJdbcConnectionException;
import org.springframework.transaction.CannotCreateTransactionException;
import org.springframework.transaction.TransactionSystemException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyLong;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.BDDMockito.given;
import static org.mockito.BDDMockito.willThrow;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;

/**
 * The sync path's answer when a call fails half-way: once MySQL has the order it stands, whatever Redis does next;
 * a failure that may have taken a unit without an order gives it back before it is answered; a commit whose outcome
 * nobody can tell is unconfirmed under the order's id. Its collaborators are stand-ins; the test is about what the
 * shopper is told and what becomes of the unit.
 */
class SyncSaleTest {

    static final long VOUCHER = 7;
    static final long SHOPPER = 11;
    static final long ORDER = 42;
    static final Instant NOW = Instant.parse("2026-11-27T12:00:00Z");

    final SaleWindowCache windows = mock(SaleWindowCache.class);
    final StockCache stock = mock(StockCache.class);
    final SeckillLocks locks = mock(SeckillLocks.class);
    final SyncOrderCreation writer = mock(SyncOrderCreation.class);
    final IdGenerator ids = mock(IdGenerator.class);
    final PurchaseDecision purchases = mock(PurchaseDecision.class);
    final OwnOrders orders = mock(OwnOrders.class);
    final SyncSale sale = new SyncSale(windows, stock, purchases, mock(SyncUnits.class), mock(StreamReconciler.class),
            locks, writer, orders, mock(ShopperRateLimits.class), ids, mock(SaleMeters.class),
            Clock.fixed(NOW, ZoneOffset.UTC), mock(TicketAdmission.class));

    @BeforeEach
    void anOpenSaleWithAUnitForTheOrder() {
        given(windows.require(VOUCHER)).willReturn(new SaleWindow(NOW.minusSeconds(60), NOW.plusSeconds(60)));
        given(locks.lockShopper(VOUCHER, SHOPPER)).willReturn(mock(HeldLock.class));
        given(locks.lockVoucher(VOUCHER)).willReturn(mock(HeldLock.class));
        given(ids.next()).willReturn(ORDER);
        given(purchases.decide(eq(VOUCHER), eq(PurchaseDecision.Keeping.HOLD), any(), any()))
                .willReturn(PurchaseDecision.Decision.of(PurchaseDecision.Outcome.ACCEPTED));
    }

    @Test
    void aPurchaseCallWhoseAnswerIsLostGivesBackTheUnitItMayHaveTakenBeforeTheFailureIsAnswered() {
        RedisResponseTimeoutException lost = new RedisResponseTimeoutException("no answer in 3000 ms");
        given(purchases.decide(eq(VOUCHER), eq(PurchaseDecision.Keeping.HOLD), any(), any())).willThrow(lost);

        assertThatThrownBy(() -> sale.place(SHOPPER, VOUCHER, false, null)).isSameAs(lost);

        verify(stock).giveBack(VOUCHER, ORDER);
        verify(writer, never()).create(anyLong(), anyLong(), anyLong());
    }

    @Test
    void whenGivingTheUnitBackFailsTooTheFirstFailureIsAnsweredAndTheSweeperIsLeftTheUnit() {
        RedisResponseTimeoutException lost = new RedisResponseTimeoutException("no answer in 3000 ms");
        given(purchases.decide(eq(VOUCHER), eq(PurchaseDecision.Keeping.HOLD), any(), any())).willThrow(lost);
        willThrow(new RedisTimeoutException("still no answer")).given(stock).giveBack(VOUCHER, ORDER);

        assertThatThrownBy(() -> sale.place(SHOPPER, VOUCHER, false, null)).isSameAs(lost);
    }

    @Test
    void aTransactionWhoseCommitAnswerIsLostButThatIsInMySqlIsCreatedAndKeepsItsUnit() {
        willThrow(new TransactionSystemException("commit: connection reset")).given(writer).create(ORDER, SHOPPER, VOUCHER);
        given(orders.orderIdInMySql(SHOPPER, VOUCHER)).willReturn(OptionalLong.of(ORDER));

        PlacedOrder placed = sale.place(SHOPPER, VOUCHER, false, null);

        assertThat(placed.orderId()).isEqualTo(ORDER);
        verify(stock, never()).giveBack(anyLong(), anyLong());
        verify(stock).addBuyer(VOUCHER, SHOPPER, ORDER);
    }

    @Test
    void aTransactionThatFailedAndIsNotInMySqlGivesItsUnitBack() {
        TransactionSystemException failed = new TransactionSystemException("commit: connection reset");
        willThrow(failed).given(writer).create(ORDER, SHOPPER, VOUCHER);
        given(orders.orderIdInMySql(SHOPPER, VOUCHER)).willReturn(OptionalLong.empty());

        assertThatThrownBy(() -> sale.place(SHOPPER, VOUCHER, false, null)).isSameAs(failed);

        verify(stock).giveBack(VOUCHER, ORDER);
    }

    @Test
    void aTransactionThatFailedWhenMySqlCannotSayWhetherItCommittedIsUnconfirmedUnderItsIdAndKeepsItsUnit() {
        willThrow(new TransactionSystemException("commit: connection reset")).given(writer).create(ORDER, SHOPPER, VOUCHER);
        given(orders.orderIdInMySql(SHOPPER, VOUCHER)).willThrow(new CannotGetJdbcConnectionException("MySQL is gone"));

        assertThatThrownBy(() -> sale.place(SHOPPER, VOUCHER, false, null)).isInstanceOfSatisfying(Refusal.class, refusal -> {
            assertThat(refusal.reason()).isEqualTo(Reason.ORDER_UNCONFIRMED);
            assertThat(refusal.orderId()).isEqualTo(ORDER);
        });
        verify(stock, never()).giveBack(anyLong(), anyLong());
    }

    @Test
    void aTransactionThatCouldNotBeginGivesItsUnitBackWithoutAskingMySql() {
        CannotCreateTransactionException noConnection = new CannotCreateTransactionException("no connection in 3 s");
        willThrow(noConnection).given(writer).create(ORDER, SHOPPER, VOUCHER);

        assertThatThrownBy(() -> sale.place(SHOPPER, VOUCHER, false, null)).isSameAs(noConnection);

        verify(stock).giveBack(VOUCHER, ORDER);
        verify(orders, never()).orderIdInMySql(anyLong(), anyLong());
    }

    @Test
    void anOrderCommittedToMySqlIsCreatedEvenWhenRedisFailsToMarkItsBuyerAfterwards() {
        willThrow(new RedisTimeoutException("no answer")).given(stock).addBuyer(VOUCHER, SHOPPER, ORDER);

        PlacedOrder placed = sale.place(SHOPPER, VOUCHER, false, null);

        assertThat(placed.orderId()).as("MySQL has it: the shopper is told so, not backend-unavailable").isEqualTo(ORDER);
        verify(writer).create(ORDER, SHOPPER, VOUCHER);
        verify(stock, never()).giveBack(anyLong(), anyLong());
    }
}
