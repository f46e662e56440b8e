package dev.seckill.voucher;

final class VoucherLimits {

    /** Far above any real flash sale; keeps a typo (or an attack) from seeding billions of units. */
    static final int MAX_STOCK = 10_000_000;

    /** About 5 million SHA-256 hashes on average: tens of seconds on a phone; more would shut people out. */
    static final int MAX_CHALLENGE_DIFFICULTY = 10_000_000;

    private VoucherLimits() {
    }
}
