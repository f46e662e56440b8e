/**
 * Orders in MySQL, behind one door: the {@code voucher_order} table ({@code db/migration/V1__create_schema.sql}) is
 * read and written by this module alone. Written by {@link dev.seckill.order.OrderBatchWriter} (the async consumers'
 * batches, the sync path's batch of one through {@link dev.seckill.order.OrderWriter}, and a fresh sale's deletion on
 * the voucher module's event, which keeps the ids it deleted in {@code fresh_sale_deleted_order}, V9); read by a
 * shopper's queries ({@link dev.seckill.order.OrderQueries}: MySQL, then what Redis knows of orders on their way,
 * each read its own transaction) and by the questions other modules ask
 * ({@link dev.seckill.order.OrderRecords}: which of these orders are in MySQL, counts and buyers for the audit,
 * each buyer's order for the reconcile; {@link dev.seckill.order.OrderLookup} for the consumers' failure policy).
 * Takes its units of MySQL stock through the voucher module ({@code VoucherStock}), and each voucher's payment window
 * from it ({@code PaymentWindows}). Web adapter: {@code order.web}.
 */
@Owns(tables = {"voucher_order", "fresh_sale_deleted_order"})
package dev.seckill.order;

import dev.seckill.Owns;
