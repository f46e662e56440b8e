package dev.seckill.sale;

import java.util.OptionalLong;
import java.util.function.Supplier;

import dev.seckill.refusal.Reason;
import dev.seckill.refusal.Refusal;

/**
 * A purchase's success: the order, and whether this request created it or, carrying an
 * {@code Idempotency-Key}, was answered with the shopper's existing order (a replay of the first answer).
 */
public record PlacedOrder(long orderId, boolean replayed) {

    public static PlacedOrder created(long orderId) {
        return new PlacedOrder(orderId, false);
    }

    public static PlacedOrder replayed(long orderId) {
        return new PlacedOrder(orderId, true);
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
