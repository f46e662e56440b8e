/**
 * The async path around Redis: the enqueue call that shares one purchase decision among a voucher's concurrent
 * orders ({@code OrderEnqueue}, {@code EnqueueCoalescer}), the consumers that read the order streams and hand
 * batches to the order module's writer with a failure policy, the pending-order gauges, and the reconcile that
 * rebuilds a voucher's Redis state from MySQL and the stream. Owns no key and no script: it goes through
 * {@code dev.seckill.salestate} for every one.
 */
package dev.seckill.orderstream;
