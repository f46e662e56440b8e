package dev.seckill.sale.buying;

import dev.seckill.sale.PlacedOrder;
import dev.seckill.sale.Sale;

import java.time.Clock;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;

import dev.seckill.AsyncMode;
import dev.seckill.id.IdGenerator;
import dev.seckill.sale.SaleMeters;
import dev.seckill.order.OwnOrders;
import dev.seckill.sale.reconcile.StreamReconciler;
import dev.seckill.ratelimit.ShopperRateLimits;
import dev.seckill.refusal.Refusal;
import dev.seckill.sale.buying.PurchaseDecision.Outcome;
import dev.seckill.voucher.SaleWindow;
import dev.seckill.voucher.SaleWindowCache;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.stereotype.Service;

/**
 * The asynchronous seckill path: memory checks, then exactly one Redis call (the purchase script)
 * that decides and queues the order, waited for by no thread ({@link #placeAsync}); {@code OrderStreamConsumer}
 * writes it to MySQL. After a voucher
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
    private final OwnOrders orders;
    private final SaleMeters meters;
    private final Clock clock;
    private final Executor blocking;
    private final TicketAdmission admission;

    AsyncSale(SaleWindowCache windows, SoldOutFlags soldOut, OrderEnqueue stream, StreamReconciler reconciler,
            IdGenerator ids, ShopperRateLimits rateLimits, OwnOrders orders, SaleMeters meters, Clock clock,
            @Qualifier("applicationTaskExecutor") Executor blocking, TicketAdmission admission) {
        this.admission = admission;
        this.windows = windows;
        this.soldOut = soldOut;
        this.stream = stream;
        this.reconciler = reconciler;
        this.ids = ids;
        this.rateLimits = rateLimits;
        this.orders = orders;
        this.meters = meters;
        this.clock = clock;
        this.blocking = blocking;
    }

    /**
     * Nothing waits for Redis: an accepted order completes on Redisson's I/O thread, where the caller answers
     * it. Any other answer of the script may read MySQL or rebuild the stock, so it is decided on
     * {@code blocking} instead, never on that thread.
     */
    @Override
    public CompletableFuture<PlacedOrder> placeAsync(long shopperId, long voucherId, boolean replayable,
            String ticket) {
        SaleWindow window = windows.require(voucherId);
        window.requireOpenAt(clock.instant());
        long generation = soldOut.admit(voucherId);
        if (generation == SoldOutFlags.SOLD_OUT) {
            // Without a key a sold-out refusal costs no Redis call.
            return CompletableFuture.completedFuture(soldOut(shopperId, voucherId, replayable));
        }
        admission.admit(window, ticket, replayable);
        rateLimits.requireOrderPermit(shopperId);
        long orderId = ids.next();
        return stream.enqueueAsync(voucherId, shopperId, orderId, clock.millis(), ticket).thenCompose(result ->
                result.outcome() == Outcome.ACCEPTED
                        ? CompletableFuture.completedFuture(accepted(result, orderId, voucherId))
                        : CompletableFuture.supplyAsync(
                                () -> decided(result, window, shopperId, voucherId, orderId, generation, replayable, ticket),
                                blocking))
                .exceptionally(failure -> {
                    throw unknownIfMaybeTaken(failure, orderId, voucherId);
                });
    }

    /**
     * A purchase call that may have run before it failed cannot say the order was not taken: it names the order,
     * unconfirmed, as the replica wait does. Any other failure is passed on as it is.
     */
    private static RuntimeException unknownIfMaybeTaken(Throwable failure, long orderId, long voucherId) {
        Throwable cause = failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
        if (cause instanceof PurchaseAttempts.OutcomeUnknown) {
            return Refusal.outcomeUnknown(orderId, voucherId);
        }
        return failure instanceof RuntimeException runtime ? runtime : new CompletionException(failure);
    }

    private PlacedOrder accepted(OrderEnqueue.Enqueue result, long orderId, long voucherId) {
        meters.accepted(voucherId);
        if (result.unconfirmed()) {
            // Taken by the master and on its way to MySQL like any other: an accepted order, only its
            // answer is a 503 (the replicas did not confirm it in time).
            throw Refusal.unconfirmed(orderId, voucherId);
        }
        return PlacedOrder.created(orderId);
    }

    private PlacedOrder decided(OrderEnqueue.Enqueue result, SaleWindow window, long shopperId, long voucherId, long orderId,
            long generation, boolean replayable, String ticket) {
        if (result.outcome() == Outcome.NOT_CACHED) {
            // Redis lost the voucher's keys: rebuild stock and buyers from MySQL and the stream, once.
            reconciler.reconcileIfMissing(voucherId);
            result = stream.enqueue(voucherId, shopperId, orderId, clock.millis(), ticket);
        }
        return switch (result.outcome()) {
            case ACCEPTED -> accepted(result, orderId, voucherId);
            case SOLD_OUT -> {
                soldOut.markSoldOut(voucherId, generation);
                yield soldOut(shopperId, voucherId, replayable);
            }
            case ALREADY_BOUGHT -> SaleAnswers.alreadyBought(result.existingOrderId(), replayable,
                    () -> orders.orderIdInMySql(shopperId, voucherId))
                    .asItIsNow(id -> orders.statusOfOwn(id, shopperId));
            case NO_TICKET -> throw TicketAdmission.noTicket(window, ticket);
            case RESETTING, NOT_CACHED -> throw SaleAnswers.voucherBusy(result.outcome());
        };
    }

    private PlacedOrder soldOut(long shopperId, long voucherId, boolean replayable) {
        return PlacedOrder.soldOut(replayable, () -> orders.liveOrderIdAsync(shopperId, voucherId))
                .asItIsNow(id -> orders.statusOfOwn(id, shopperId));
    }

    @Override
    public boolean confirmsAtOnce() {
        return false;
    }
}
