package dev.seckill.sale;

import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.LongFunction;
import java.util.function.Supplier;

import dev.seckill.order.OrderStatus;
import dev.seckill.refusal.Reason;
import dev.seckill.refusal.Refusal;

/**
 * A purchase's success: the order, and whether this request created it or, carrying an
 * {@code Idempotency-Key}, was answered with the shopper's existing order (a replay of the first answer).
 *
 * @param statusNow for a replay, the order's state when it was answered ({@link #asItIsNow}); null for an order
 *                  this request created, whose state is the one its path gives every new order
 */
public record PlacedOrder(long orderId, boolean replayed, OrderStatus statusNow) {

    public PlacedOrder(long orderId, boolean replayed) {
        this(orderId, replayed, null);
    }

    public static PlacedOrder created(long orderId) {
        return new PlacedOrder(orderId, false);
    }

    public static PlacedOrder replayed(long orderId) {
        return new PlacedOrder(orderId, true);
    }

    /**
     * A replay with its order's state now, read by {@code statusOf} (empty if the order cannot be found, e.g. a reset
     * deleted it: the replay then says what the first answer said). An order may have moved on since the first answer
     * (paid, cancelled, expired): a retry must not be told it is still on its way. A created order is returned as is.
     */
    public PlacedOrder asItIsNow(LongFunction<Optional<OrderStatus>> statusOf) {
        if (!replayed) {
            return this;
        }
        return statusOf.apply(orderId).map(now -> new PlacedOrder(orderId, true, now)).orElse(this);
    }

    /**
     * Sold out, for every shopper, buyers too: both paths say so before they ask whether the shopper bought.
     * With an Idempotency-Key, the retry of a request that took one of the last units gets its order back
     * ({@code ownOrder} looks it up; asked only then).
     */
    public static PlacedOrder soldOut(boolean replayable, Supplier<OptionalLong> ownOrder) {
        if (replayable) {
            OptionalLong own = ownOrder.get();
            if (own.isPresent()) {
                return replayed(own.getAsLong());
            }
        }
        throw new Refusal(Reason.SOLD_OUT);
    }
}
