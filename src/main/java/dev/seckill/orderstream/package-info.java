/**
 * The async path: the enqueue call that decides and queues ({@code OrderEnqueue}, coalesced per voucher), the
 * per-voucher Redis streams, their consumers that hand batches to the order module's writer with a failure
 * policy, and the reconcile that
 * rebuilds a voucher's Redis state from MySQL and the stream. Owns the keys {@code seckill:{id}:orders}
 * (stream), {@code :pending}, {@code :failed}, {@code :dead}, {@code :attempts} and {@code :shopper-orders},
 * and the scripts {@code seckill-enqueue.lua}, {@code seckill-ack.lua}, {@code seckill-fail.lua},
 * {@code seckill-fail-duplicate.lua}; it also reads and writes the stock
 * counter and buyer set inside those scripts (stock's keys, named by {@code VoucherKeys}).
 */
package dev.seckill.orderstream;
