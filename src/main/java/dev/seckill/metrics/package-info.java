/**
 * The sale's Micrometer meters ({@code seckill.*}), exported at {@code /actuator/prometheus} (admin only) and
 * read back, per voucher, by the live numbers ({@code dev.seckill.live}). Owns {@link dev.seckill.metrics.SaleMeters}:
 * every counter and timer of the order path is registered there once and kept, so that the request path only
 * looks a meter up in a map and increments it, never builds a meter id. Tags stay small and bounded: a voucher
 * (only vouchers that exist get that far), a problem code, a mode, a reason from a fixed list; never a shopper.
 * The pending backlog's gauges read Redis and belong to {@code dev.seckill.orderstream.PendingBacklog}.
 * docs/observability.md names every meter.
 */
package dev.seckill.metrics;
