/**
 * A voucher's sale state in Redis, and the only code that touches it: every key name
 * ({@link dev.seckill.salestate.VoucherKeys}, each with a {@code {voucherId}} hash tag so scripts run on Redis
 * Cluster) and every script, loaded once and run by EVALSHA.
 * <ul>
 *   <li>the purchase decision of both paths ({@link dev.seckill.sale.buying.PurchaseDecision}, {@code purchase.lua}), which
 *       spends a shopper's purchase ticket, and the tickets themselves ({@code TicketStore}, {@code ticket-issue.lua});</li>
 *   <li>the stock counter, the reset fence and the sold-out flags every instance keeps in memory, kept in step
 *       over pub/sub ({@code StockCache}, {@code SoldOutFlags}, {@code stock-*.lua});</li>
 *   <li>the units of expired and cancelled orders given back to the counter once per order ({@code UnitReturns},
 *       {@code unit-return*.lua});</li>
 *   <li>the sync path's units in flight ({@code SyncUnits}, {@code sync-unit-*.lua});</li>
 *   <li>the async path's order streams, their acknowledgement and give-up scripts, and the backlog they hold
 *       ({@code OrderStream}, {@code OrderBacklogs}, {@code seckill-ack.lua}, {@code seckill-fail*.lua});</li>
 *   <li>the buyer set and shopper -> order index ({@code BuyerIndex}) and what Redis knows of orders on their
 *       way ({@code OrderStates}, {@code shopper-order.lua});</li>
 *   <li>the Redisson locks of the order's life ({@link dev.seckill.salestate.SeckillLocks}): a shopper's lock and a
 *       voucher's lock for the sync path, and a voucher's order-writes lock (read-write: the consumers share it, a
 *       give-up takes it alone), all without a lease, renewed by Redisson's watchdog; and their meters.</li>
 * </ul>
 * Owns no table: the order and voucher modules own MySQL.
 */
@Owns(redisKeys = {"seckill:{", "seckill:order-streams", "seckill:sync-unit-vouchers",
        "seckill:lock:"}, scripts = {"stock-return.lua", "stock-rebase.lua", "stock-fence.lua",
        "stock-reset.lua", "stock-unfence.lua", "sync-unit-settle.lua", "sync-unit-return.lua", "shopper-order.lua", "unit-return.lua",
        "unit-return-mark.lua", "ticket-issue.lua"})
package dev.seckill.salestate;

import dev.seckill.Owns;
