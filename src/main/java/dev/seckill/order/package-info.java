/**
 * Orders in MySQL: the {@code voucher_order} table ({@code db/migration/V1__create_schema.sql}), written by
 * nothing else than {@link dev.seckill.order.OrderBatchWriter} (the async consumers' batches, the sync path's
 * batch of one through {@link dev.seckill.order.OrderWriter}, and a fresh sale's deletion on the voucher
 * module's event), and the queries a shopper's orders are read with (MySQL, then what Redis knows of orders
 * on their way, each read its own transaction). Takes its units of MySQL stock through the voucher module.
 */
package dev.seckill.order;
