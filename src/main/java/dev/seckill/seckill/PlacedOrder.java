package dev.seckill.seckill;

/**
 * A purchase's success: the order, and whether this request created it or, carrying an
 * {@code Idempotency-Key}, was answered with the shopper's existing order (a replay of the first answer).
 */
public record PlacedOrder(long orderId, boolean replayed) {

    static PlacedOrder created(long orderId) {
        return new PlacedOrder(orderId, false);
    }

    static PlacedOrder replayed(long orderId) {
        return new PlacedOrder(orderId, true);
    }
}
