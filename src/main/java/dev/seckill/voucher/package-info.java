/**
 * Vouchers and their sale: the tables {@code voucher} and {@code seckill_voucher}
 * ({@code db/migration/V1__create_schema.sql}), creation, stock resets (under the voucher's lock and the
 * stock module's reset fence), and the sale-window cache that answers "is it open?" and "does it exist?"
 * without a query. The sync order transaction still takes its unit of {@code seckill_voucher} through this
 * module's repository, and the async batch writer updates it directly: one writer is still to come.
 */
package dev.seckill.voucher;
