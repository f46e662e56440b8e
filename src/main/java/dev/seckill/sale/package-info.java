/**
 * An order's life from the click to MySQL. The port is {@link dev.seckill.sale.Sale}, with two adapters, only the
 * configured one existing ({@code seckill.mode}):
 * <ul>
 *   <li>{@code sale.async} (default): memory checks, then one purchase script that decides and queues
 *       ({@code AsyncSale}, {@code OrderEnqueue}, {@code EnqueueCoalescer}); consumers read the order streams and
 *       hand batches to the order module's writer under a failure policy ({@code OrderStreamConsumer},
 *       {@code OrderFailurePolicy}, {@code FailureClassifier});</li>
 *   <li>{@code sale.sync}: the shopper's and the voucher's Redisson locks around the order's transaction
 *       ({@code SyncSale}), and the sweeper that settles or returns units left by requests that died half-way;</li>
 *   <li>{@code sale.reconcile}: the rebuild of a voucher's Redis state from MySQL and what is on its way, used by
 *       both paths and the admin side;</li>
 *   <li>{@code sale.internal}: the answers both paths share, and the check that refuses to start one mode while
 *       the other left work in Redis;</li>
 *   <li>{@code sale.web}: {@code POST /seckill/{id}} and the admin's reconcile.</li>
 * </ul>
 * The API other modules use: {@link dev.seckill.sale.PlacedOrder}, the sale's meters
 * ({@link dev.seckill.sale.SaleMeters}: every counter and timer of the order path registered once; tags small and
 * bounded, never a shopper) and the pending backlog's gauges ({@link dev.seckill.sale.PendingBacklog}). Owns no table,
 * key or script: it uses those of salestate, order and voucher.
 */
@Owns(tables = {"redis_topology", "redis_failover", "redis_failover_replay", "redis_watcher"},
        redisKeys = "seckill:sold-out:", scripts = {"sale/buying/purchase.lua", "sale/stream/seckill-ack.lua",
        "sale/stream/seckill-fail.lua", "sale/stream/seckill-fail-duplicate.lua", "sale/failover/failover-replay.lua"})
package dev.seckill.sale;

import dev.seckill.Owns;
