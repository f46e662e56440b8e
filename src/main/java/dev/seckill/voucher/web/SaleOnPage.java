package dev.seckill.voucher.web;

import dev.seckill.voucher.VoucherView;

/**
 * A voucher as the shop shows it. Stock alone says "0 left" while unpaid orders may still give units back, so a
 * sold-out sale names those orders; the shopper then knows it is worth coming back.
 *
 * @param awaitingPayment the voucher's orders awaiting payment (asked only for a sold-out voucher: 0 otherwise)
 */
public record SaleOnPage(VoucherView voucher, long awaitingPayment) {

    public boolean soldOut() {
        return voucher.stock() <= 0;
    }

    /** What the sale's state line says while the sale is open and sold out; null while units are left. */
    public String soldOutWords() {
        if (!soldOut()) {
            return null;
        }
        return awaitingPayment == 0 ? "Sold out"
                : "Sold out · units may come back (" + awaitingPayment + (awaitingPayment == 1 ? " unpaid order)" : " unpaid orders)");
    }
}
