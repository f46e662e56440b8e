package dev.seckill.seckill;

/**
 * The purchase decision: one shopper, one voucher, at most one order each, never more orders than stock.
 * Two adapters, chosen by {@code seckill.mode} so that only the configured one exists: {@link AsyncSale}
 * (one Redis script decides and queues; the consumers write to MySQL) and {@link SyncSale} (the articles'
 * design: the shopper's and the voucher's locks around the order's transaction).
 */
public interface Sale {

    /**
     * Places the shopper's order, or refuses it with a {@link dev.seckill.refusal.Refusal}.
     *
     * @param replayable the request carries an {@code Idempotency-Key}: it may be a retry of one whose answer
     *        was lost, so the shopper's existing order is answered as a success (the first answer again)
     *        instead of already-ordered or sold-out
     */
    PlacedOrder place(long shopperId, long voucherId, boolean replayable);

    /** Whether a placed order is in MySQL already (sync: CONFIRMED) or on its way there (async: PENDING). */
    boolean confirmsAtOnce();
}
