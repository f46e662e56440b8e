/**
 * Durability of what Redis holds: accepted orders live in Redis until the consumers write them to MySQL,
 * so a Redis that loses its data loses orders. This module notices such a loss and remembers it; it
 * never hides one. Owns the tables {@code redis_epoch} and {@code redis_data_loss} and the Redis key
 * {@code seckill:epoch} (on a Redis Cluster also its copies, one per window of slots, so that every master
 * holds one): a marker MySQL also holds, written when the platform first meets a Redis data set. A marker
 * gone from Redis (a flush, a restart without persistence) is a loss: logged, counted
 * ({@code seckill.redis.data.losses}), recorded once, and reported by the audit of every sale that
 * existed at that moment.
 * <p>
 * A failover, which the marker cannot notice (the promoted replica holds it, but perhaps not the last orders), is the
 * sale module's ({@code sale.failover}).
 */
@Owns(tables = {"redis_epoch", "redis_data_loss"}, redisKeys = "seckill:epoch")
package dev.seckill.durability;

import dev.seckill.Owns;
