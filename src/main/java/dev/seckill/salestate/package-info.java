/**
 * What several modules share of a voucher's sale in Redis: every key name ({@link dev.seckill.salestate.VoucherKeys},
 * each with a {@code {voucherId}} hash tag so scripts run on Redis Cluster) and the state more than one module reads
 * or writes, each script loaded once and run by EVALSHA.
 * <ul>
 *   <li>the stock counter and the reset fence ({@code StockCache}, {@code stock-*.lua}), written by the sale, the
 *       voucher's reset and the reconcile, read by the audit; {@code StockCounterWritten} tells the sale's sold-out
 *       flags that units may be back;</li>
 *   <li>the units of expired and cancelled orders given back to the counter once per order ({@code UnitReturns},
 *       {@code unit-return*.lua});</li>
 *   <li>the sync path's units in flight ({@code SyncUnits}, {@code sync-unit-*.lua});</li>
 *   <li>what Redis knows of orders on their way ({@code OrderStates}, {@code shopper-order.lua}) and one queued order
 *       ({@code QueuedOrder}), read by the order module and the sale's consumers and audit;</li>
 *   <li>the Redisson locks of the order's life ({@link dev.seckill.salestate.SeckillLocks}): a shopper's lock and a
 *       voucher's lock for the sync path, and a voucher's order-writes lock (read-write: the consumers share it, a
 *       give-up takes it alone), all without a lease, renewed by Redisson's watchdog; and their meters.</li>
 * </ul>
 * The sale module owns its own scripts (purchase, stream, failover replay, ticket issue) beside its code. Owns no
 * table: the order and voucher modules own MySQL.
 */
@Owns(redisKeys = {"seckill:{", "seckill:order-streams", "seckill:sync-unit-vouchers", "seckill:lock:"},
        scripts = {"stock-return.lua", "stock-rebase.lua", "stock-fence.lua", "stock-reset.lua", "stock-unfence.lua",
        "sync-unit-settle.lua", "sync-unit-return.lua", "shopper-order.lua", "unit-return.lua", "unit-return-mark.lua"})
package dev.seckill.salestate;

import dev.seckill.Owns;
