package dev.seckill.sale;

import java.util.concurrent.CompletableFuture;

/**
 * The purchase decision: one shopper, one voucher, at most one order each, never more orders than stock.
 * Two adapters, chosen by {@code seckill.mode} so that only the configured one exists: {@link AsyncSale}
 * (one Redis script decides and queues; the consumers write to MySQL) and {@link SyncSale} (the articles'
 * design: the shopper's and the voucher's locks around the order's transaction).
 */
public interface Sale {

    /**
     * Places the shopper's order: what is decided before Redis is thrown at once (a
     * {@link dev.seckill.refusal.Refusal}); the stage completes with the order, or fails with a {@code Refusal} or an
     * outage, possibly on Redis's I/O thread. A path that holds locks around its transaction (sync) decides while the
     * caller waits and hands back a completed stage.
     *
     * @param replayable the request carries an {@code Idempotency-Key}: it may be a retry of one whose answer
     *        was lost, so the shopper's existing order is answered as a success (the first answer again)
     *        instead of already-ordered or sold-out
     * @param ticket     the request's {@code Seckill-Ticket}, null if none: with {@code seckill.tickets.required},
     *        a unit is taken only with the shopper's live ticket for this voucher, which the taking spends
     */
    CompletableFuture<PlacedOrder> placeAsync(long shopperId, long voucherId, boolean replayable, String ticket);

    /** Whether a placed order is in MySQL already (sync: AWAITING_PAYMENT) or on its way there (async: PENDING). */
    boolean confirmsAtOnce();
}
