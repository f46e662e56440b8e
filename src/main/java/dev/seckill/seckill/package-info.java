/**
 * The purchase decision of {@code POST /seckill/{id}}, behind one port ({@link dev.seckill.seckill.Sale}) with
 * two adapters, only the configured one existing ({@code seckill.mode}): the async path
 * ({@code AsyncSale}: memory checks, then one purchase script that decides and queues) and the sync path
 * ({@code SyncSale}: the shopper's and the voucher's Redisson locks around the order's transaction). Both
 * return a {@link dev.seckill.seckill.PlacedOrder} or throw a {@link dev.seckill.refusal.Refusal}; the web
 * module answers them. Owns no table, key or script: it uses those of salestate, orderstream and order. Refuses to start in
 * one mode while the other left work in Redis ({@code ModeSwitchCheck}).
 */
package dev.seckill.seckill;
