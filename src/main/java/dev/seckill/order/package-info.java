/**
 * Orders in MySQL, behind one door: the {@code voucher_order} table ({@code db/migration/V1__create_schema.sql}) is
 * read and written by this module alone. Orders enter it through {@link dev.seckill.order.NewOrderWriter} (the async
 * consumers' batches, and the sync path's batch of one through {@link dev.seckill.order.SyncOrderCreation}). After the
 * click they move by guarded statements ({@link dev.seckill.order.OrderTransitions}): paid, cancelled or refunded as
 * {@link dev.seckill.order.OrderSettlement} decides, expired by the scan of {@code OrderExpiry}, their units going back
 * to Redis through {@code UnitsBackToRedis}. A fresh sale deletes a voucher's orders on the voucher module's event
 * ({@code FreshSaleOrderDeletion}, which keeps the ids it deleted in {@code fresh_sale_deleted_order}, V9). Read by a
 * shopper's queries ({@link dev.seckill.order.OwnOrders}: MySQL, then what Redis knows of orders on their way, each
 * read its own transaction) and by the questions other modules ask ({@link dev.seckill.order.OrdersByVoucher}: which
 * of these orders are in MySQL, counts and buyers for the audit, each buyer's order for the reconcile;
 * {@link dev.seckill.order.GiveUpLookup} for the consumers' failure policy). Takes its units of MySQL stock through
 * the voucher module ({@code VoucherStock}), and each voucher's payment window from it ({@code PaymentWindows}). Web
 * adapter: {@code order.web}.
 */
@Owns(tables = {"voucher_order", "fresh_sale_deleted_order"})
package dev.seckill.order;

import dev.seckill.Owns;
