package dev.seckill.voucher;

final class VoucherLimits {

    /** Far above any real flash sale; keeps a typo (or an attack) from seeding billions of units. */
    static final int MAX_STOCK = 10_000_000;

    private VoucherLimits() {
    }
}
