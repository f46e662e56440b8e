/**
 * Vouchers and their sale: the tables {@code voucher} and {@code seckill_voucher}
 * ({@code db/migration/V1__create_schema.sql}), whose SQL is all here ({@code SeckillVoucherRepository}: the
 * guarded stock UPDATEs the order writer takes its units with, the reset), creation, stock resets (under the
 * voucher's lock and the stock module's reset fence; a fresh sale asks the order module to delete its
 * orders, {@link dev.seckill.voucher.FreshSaleStarting}), and the sale-window cache that answers "is it
 * open?" and "does it exist?" without a query.
 */
package dev.seckill.voucher;
