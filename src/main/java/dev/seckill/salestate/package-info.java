/**
 * A voucher's sale state in Redis: every key name ({@link dev.seckill.salestate.VoucherKeys}, each with a
 * {@code {voucherId}} hash tag so scripts run on Redis Cluster), the stock counter and buyer set, the sync
 * path's units in flight, the reset fence, and the sold-out flags every instance keeps in memory (kept in
 * step over pub/sub), and what Redis knows of orders on their way ({@code OrderStates}). Owns the scripts
 * {@code stock-*.lua}, {@code sync-unit-*.lua} and {@code shopper-order.lua}, loaded once and
 * run by EVALSHA ({@link dev.seckill.salestate.LuaScript}). Owns no table.
 */
package dev.seckill.salestate;
