/**
 * An order's journey from the click to MySQL, one package per stage, so that one purchase is read in one place until
 * it reaches Redis. The port is {@link dev.seckill.sale.Sale}, with two adapters, only the configured one existing
 * ({@code seckill.mode}):
 * <ul>
 *   <li>{@code sale.buying}: {@code POST /seckill/{id}} to the purchase script. The controller, both adapters
 *       ({@code AsyncSale}, the default: memory checks, then one script call that decides and queues, through
 *       {@code OrderEnqueue} and {@code EnqueueCoalescer}; {@code SyncSale}: the shopper's and the voucher's locks
 *       around the order's transaction), the one purchase decision of both ({@code PurchaseDecision},
 *       {@code sale/buying/purchase.lua}) and the sold-out flags every instance keeps in memory;</li>
 *   <li>{@code sale.stream}: the async path's order streams to MySQL. Consumers read them and hand batches to the
 *       order module's writer under a failure policy ({@code OrderStreamConsumer}, {@code OrderFailurePolicy},
 *       {@code FailureClassifier}); {@code OrderStream} and the acknowledge and give-up scripts under
 *       {@code sale/stream/};</li>
 *   <li>{@code sale.failover}: a Redis failover. The watcher that notices it, the journal of accepted orders and its
 *       replay into the new master ({@code failover-replay.lua}), the optional wait for replicas; owns the tables
 *       {@code redis_topology}, {@code redis_failover}, {@code redis_failover_replay} and {@code redis_watcher}.
 *       {@code RedisFailovers} is a named interface: the audit reads the failovers that touched a sale;</li>
 *   <li>{@code sale.sync}: the sweeper that settles or returns units left by sync requests that died half-way;</li>
 *   <li>{@code sale.reconcile}: the rebuild of a voucher's Redis state from MySQL and what is on its way, used by
 *       both paths and the admin's reconcile ({@code sale.web});</li>
 *   <li>{@code sale.internal}: the check that refuses to start one mode while the other left work in Redis.</li>
 * </ul>
 * The API other modules use: {@link dev.seckill.sale.PlacedOrder}, the sale's meters
 * ({@link dev.seckill.sale.SaleMeters}: every counter and timer of the order path registered once; tags small and
 * bounded, never a shopper) and the pending backlog's gauges ({@link dev.seckill.sale.PendingBacklog}). The key names
 * and the state several modules read (stock counter, order states, returns, locks) are salestate's.
 */
@Owns(tables = {"redis_topology", "redis_failover", "redis_failover_replay", "redis_watcher"},
        redisKeys = "seckill:sold-out:", scripts = {"sale/buying/purchase.lua", "sale/stream/seckill-ack.lua",
        "sale/stream/seckill-fail.lua", "sale/stream/seckill-fail-duplicate.lua", "sale/failover/failover-replay.lua"})
package dev.seckill.sale;

import dev.seckill.Owns;
