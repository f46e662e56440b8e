package dev.seckill.seckill;

import java.time.Clock;

import dev.seckill.id.IdGenerator;
import dev.seckill.orderstream.OrderStream;
import dev.seckill.orderstream.StreamReconciler;
import dev.seckill.ratelimit.ShopperRateLimits;
import dev.seckill.stock.SoldOutFlags;
import dev.seckill.voucher.SaleWindowCache;
import dev.seckill.web.ProblemCode;
import dev.seckill.web.SeckillProblem;
import org.springframework.stereotype.Service;

/**
 * The asynchronous seckill path: memory checks, then exactly one Redis call (the enqueue script)
 * that decides and queues the order; {@code OrderStreamConsumer} writes it to MySQL. After a voucher
 * sells out, refusals cost no Redis call at all ({@link SoldOutFlags}).
 */
@Service
class AsyncSeckillService {

    private final SaleWindowCache windows;
    private final SoldOutFlags soldOut;
    private final OrderStream stream;
    private final StreamReconciler reconciler;
    private final IdGenerator ids;
    private final ShopperRateLimits rateLimits;
    private final Clock clock;

    AsyncSeckillService(SaleWindowCache windows, SoldOutFlags soldOut, OrderStream stream, StreamReconciler reconciler,
            IdGenerator ids, ShopperRateLimits rateLimits, Clock clock) {
        this.windows = windows;
        this.soldOut = soldOut;
        this.stream = stream;
        this.reconciler = reconciler;
        this.ids = ids;
        this.rateLimits = rateLimits;
        this.clock = clock;
    }

    long placeOrder(long shopperId, long voucherId) {
        windows.require(voucherId).requireOpenAt(clock.instant());
        if (soldOut.isSoldOut(voucherId)) {
            throw new SeckillProblem(ProblemCode.SOLD_OUT);
        }
        rateLimits.requireOrderPermit(shopperId);
        long orderId = ids.next();
        OrderStream.Enqueued result = stream.enqueue(voucherId, shopperId, orderId, clock.millis());
        if (result == OrderStream.Enqueued.NOT_CACHED) {
            // Redis lost the voucher's keys: rebuild stock and buyers from MySQL and the stream, once.
            reconciler.reconcileIfMissing(voucherId);
            result = stream.enqueue(voucherId, shopperId, orderId, clock.millis());
        }
        return switch (result) {
            case ACCEPTED -> orderId;
            case SOLD_OUT -> {
                soldOut.markSoldOut(voucherId);
                throw new SeckillProblem(ProblemCode.SOLD_OUT);
            }
            case ALREADY_BOUGHT -> throw new SeckillProblem(ProblemCode.ALREADY_ORDERED);
            case NOT_CACHED -> throw new SeckillProblem(ProblemCode.VOUCHER_BUSY, "The voucher's stock is being rebuilt");
        };
    }
}
