/**
 * Orders in MySQL: the {@code voucher_order} table ({@code db/migration/V1__create_schema.sql}), the sync
 * path's order transaction ({@link dev.seckill.order.OrderWriter}, its own bean so it runs through the
 * proxy) and the queries a shopper's orders are read with. The async consumers' batch writer lives in
 * orderstream for now, and the voucher module's stock reset deletes orders: one writer of the table is
 * still to come.
 */
package dev.seckill.order;
