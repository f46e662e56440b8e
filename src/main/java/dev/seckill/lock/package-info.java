/**
 * The Redisson locks of the seckill path: a shopper's lock (never waited for) and a voucher's lock (waited
 * for up to {@code seckill.lock.voucher-wait}) of the sync path, and a voucher's order-writes lock (a
 * read-write lock: the consumers writing its batches share it, a give-up takes it alone), all without a
 * lease: Redisson's watchdog renews them while their holder runs. Owns the keys {@code seckill:lock:*} and
 * the lock meters; no table.
 */
package dev.seckill.lock;
