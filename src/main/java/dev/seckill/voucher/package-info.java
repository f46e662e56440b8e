/**
 * Vouchers and their sale: the tables {@code voucher} and {@code seckill_voucher}
 * ({@code db/migration/V1__create_schema.sql}), whose SQL is all here ({@code SeckillVoucherRepository}: the
 * guarded stock UPDATEs, the reset; {@link dev.seckill.voucher.VoucherStock}: the door the order writer takes its
 * units through and the audit and reconcile read the levels through), creation, stock resets (under the
 * voucher's lock and the stock module's reset fence; a fresh sale asks the order module to delete its
 * orders, {@link dev.seckill.voucher.FreshSaleStarting}), and the sale-window cache that answers "is it
 * open?" and "does it exist?" without a query, and how long the voucher's orders wait for their payment
 * ({@link dev.seckill.voucher.PaymentWindows}, which the order writer computes {@code pay_by} from).
 * Asks the order module how many orders a voucher has through {@link dev.seckill.voucher.OrderCount}, and the
 * instances' payment window through {@link dev.seckill.voucher.DefaultPaymentWindow}, which that module implements.
 * Web adapter: {@code voucher.web}.
 */
@Owns(tables = {"voucher", "seckill_voucher"}, redisKeys = "seckill:vouchers:")
package dev.seckill.voucher;

import dev.seckill.Owns;
