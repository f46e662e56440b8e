/**
 * Live numbers for the admin dashboard, instance by instance. Every instance writes a snapshot of its own
 * cumulative counters ({@link dev.seckill.metrics.SaleMeters}: accepted, refused by code, replayed, written,
 * given up, per voucher) to Redis about once a second ({@link dev.seckill.live.LivePublisher}), in a hash that
 * expires when the instance stops writing it; {@code GET /admin/vouchers/{id}/live} puts them next to the sale's
 * stock and order counts (the audit's sources) and its backlog. Counters are cumulative since each instance
 * started: the page computes rates from two polls. Owns the Redis keys {@code seckill:live:*}: one hash per
 * instance and a sorted set naming the instances that wrote one, all in one hash slot ({@code {snapshots}}) so
 * that a snapshot replaces the previous one atomically on Redis Cluster too. Not under {@code seckill:{...}},
 * the voucher keys' prefix: what counts voucher keys must not see snapshots come and go.
 */
package dev.seckill.live;
