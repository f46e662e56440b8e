package dev.seckill.seckill;

import java.time.Clock;

import dev.seckill.AsyncMode;
import dev.seckill.id.IdGenerator;
import dev.seckill.metrics.SaleMeters;
import dev.seckill.order.OrderQueries;
import dev.seckill.orderstream.OrderEnqueue;
import dev.seckill.orderstream.StreamReconciler;
import dev.seckill.ratelimit.ShopperRateLimits;
import dev.seckill.refusal.Reason;
import dev.seckill.refusal.Refusal;
import dev.seckill.salestate.PurchaseDecision.Outcome;
import dev.seckill.salestate.SoldOutFlags;
import dev.seckill.voucher.SaleWindowCache;
import org.springframework.stereotype.Service;

/**
 * The asynchronous seckill path: memory checks, then exactly one Redis call (the purchase script)
 * that decides and queues the order; {@code OrderStreamConsumer} writes it to MySQL. After a voucher
 * sells out, refusals cost no Redis call ({@link SoldOutFlags}; one re-check per voucher per instance
 * per {@code seckill.stock.sold-out-recheck}), unless the request carries an {@code Idempotency-Key}.
 */
@AsyncMode
@Service
class AsyncSale implements Sale {

    private final SaleWindowCache windows;
    private final SoldOutFlags soldOut;
    private final OrderEnqueue stream;
    private final StreamReconciler reconciler;
    private final IdGenerator ids;
    private final ShopperRateLimits rateLimits;
    private final OrderQueries orders;
    private final SaleMeters meters;
    private final Clock clock;

    AsyncSale(SaleWindowCache windows, SoldOutFlags soldOut, OrderEnqueue stream, StreamReconciler reconciler,
            IdGenerator ids, ShopperRateLimits rateLimits, OrderQueries orders, SaleMeters meters, Clock clock) {
        this.windows = windows;
        this.soldOut = soldOut;
        this.stream = stream;
        this.reconciler = reconciler;
        this.ids = ids;
        this.rateLimits = rateLimits;
        this.orders = orders;
        this.meters = meters;
        this.clock = clock;
    }

    @Override
    public PlacedOrder place(long shopperId, long voucherId, boolean replayable) {
        windows.require(voucherId).requireOpenAt(clock.instant());
        long generation = soldOut.admit(voucherId);
        if (generation == SoldOutFlags.SOLD_OUT) {
            // Without a key a sold-out refusal costs no Redis call.
            return soldOut(shopperId, voucherId, replayable);
        }
        rateLimits.requireOrderPermit(shopperId);
        long orderId = ids.next();
        OrderEnqueue.Enqueue result = stream.enqueue(voucherId, shopperId, orderId, clock.millis());
        if (result.outcome() == Outcome.NOT_CACHED) {
            // Redis lost the voucher's keys: rebuild stock and buyers from MySQL and the stream, once.
            reconciler.reconcileIfMissing(voucherId);
            result = stream.enqueue(voucherId, shopperId, orderId, clock.millis());
        }
        return switch (result.outcome()) {
            case ACCEPTED -> {
                meters.accepted(voucherId);
                if (result.unconfirmed()) {
                    // Taken by the master and on its way to MySQL like any other: an accepted order, only its
                    // answer is a 503 (the replicas did not confirm it in time).
                    throw Refusal.unconfirmed(orderId, voucherId);
                }
                yield PlacedOrder.created(orderId);
            }
            case SOLD_OUT -> {
                soldOut.markSoldOut(voucherId, generation);
                yield soldOut(shopperId, voucherId, replayable);
            }
            case RESETTING -> throw new Refusal(Reason.VOUCHER_BUSY,
                    "The voucher's stock is being reset; try again in a moment");
            case ALREADY_BOUGHT -> alreadyBought(shopperId, voucherId, result.existingOrderId(), replayable);
            case NOT_CACHED -> throw new Refusal(Reason.VOUCHER_BUSY, "The voucher's stock is being rebuilt");
        };
    }

    private PlacedOrder soldOut(long shopperId, long voucherId, boolean replayable) {
        return PlacedOrder.soldOut(replayable, () -> orders.liveOrderIdAsync(shopperId, voucherId));
    }

    /**
     * The purchase script names the existing order when its index does; a buyer it does not name (sold
     * before the index existed, or whose async order was refused as a duplicate of a confirmed one)
     * is looked up in MySQL, which costs a read only on this rare path. An order found nowhere (an
     * older instance's order still on its way) leaves the refusal without an id.
     */
    private PlacedOrder alreadyBought(long shopperId, long voucherId, long existingOrderId, boolean replayable) {
        long existing = existingOrderId > 0 ? existingOrderId : orders.orderIdInMySql(shopperId, voucherId).orElse(0);
        if (replayable && existing > 0) {
            return PlacedOrder.replayed(existing);
        }
        throw Refusal.alreadyOrdered(existing);
    }

    @Override
    public boolean confirmsAtOnce() {
        return false;
    }
}
