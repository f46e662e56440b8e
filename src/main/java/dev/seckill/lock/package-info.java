/**
 * The Redisson locks of the seckill path: a shopper's lock (never waited for) and a voucher's lock (waited
 * for up to {@code seckill.lock.voucher-wait}), both without a lease: Redisson's watchdog renews them while
 * their holder runs. Owns the keys {@code seckill:lock:*} and the lock meters; no table.
 */
package dev.seckill.lock;
