/**
 * Rate limits shared by every instance, on Redisson's {@code RRateLimiter} (a sliding window in Redis):
 * per shopper on {@code POST /seckill} and {@code GET /orders}, and per client address on failed admin logins.
 * Owns the Redis keys {@code seckill:rate:*} (each expires when its shopper or address goes quiet).
 * The per-IP limits in front of everything are Nginx's ({@code nginx/seckill-http.conf}).
 */
@Owns(redisKeys = "seckill:rate:")
package dev.seckill.ratelimit;

import dev.seckill.Owns;
