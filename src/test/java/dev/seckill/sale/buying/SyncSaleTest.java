package dev.seckill.sale.buying;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;

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
import org.junit.jupiter.api.Test;
import org.redisson.client.RedisTimeoutException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyLong;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.BDDMockito.given;
import static org.mockito.BDDMockito.willThrow;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;

/**
 * The sync path's answer once MySQL has the order: it stands, whatever Redis does next. Its collaborators are
 * stand-ins; the test is about what the shopper is told.
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
    final SyncSale sale = new SyncSale(windows, stock, purchases, mock(SyncUnits.class), mock(StreamReconciler.class),
            locks, writer, mock(OwnOrders.class), mock(ShopperRateLimits.class), ids, mock(SaleMeters.class),
            Clock.fixed(NOW, ZoneOffset.UTC), mock(TicketAdmission.class));

    @Test
    void anOrderCommittedToMySqlIsCreatedEvenWhenRedisFailsToMarkItsBuyerAfterwards() {
        given(windows.require(VOUCHER)).willReturn(new SaleWindow(NOW.minusSeconds(60), NOW.plusSeconds(60)));
        given(locks.lockShopper(VOUCHER, SHOPPER)).willReturn(mock(HeldLock.class));
        given(locks.lockVoucher(VOUCHER)).willReturn(mock(HeldLock.class));
        given(ids.next()).willReturn(ORDER);
        given(purchases.decide(eq(VOUCHER), eq(PurchaseDecision.Keeping.HOLD), any(), any()))
                .willReturn(PurchaseDecision.Decision.of(PurchaseDecision.Outcome.ACCEPTED));
        willThrow(new RedisTimeoutException("no answer")).given(stock).addBuyer(VOUCHER, SHOPPER, ORDER);

        PlacedOrder placed = sale.place(SHOPPER, VOUCHER, false, null);

        assertThat(placed.orderId()).as("MySQL has it: the shopper is told so, not backend-unavailable").isEqualTo(ORDER);
        verify(writer).create(ORDER, SHOPPER, VOUCHER);
        verify(stock, never()).giveBack(anyLong(), anyLong());
    }
}
