package dev.seckill.voucher;

final class VoucherLimits {

    /** Far above any real flash sale; keeps a typo (or an attack) from seeding billions of units. */
    static final int MAX_STOCK = 10_000_000;

    /** About 5 million SHA-256 hashes on average: tens of seconds on a phone; more would shut people out. */
    static final int MAX_CHALLENGE_DIFFICULTY = 10_000_000;

    /**
     * The shortest payment window an admin may give a voucher: time to reach the provider's checkout and pay. The
     * instances' own setting ({@code seckill.payment.window}) is the operator's and not held to it.
     */
    static final long MIN_PAYMENT_WINDOW_SECONDS = 10;

    /** The longest: a unit held unpaid for more than a day is a unit kept off the sale. */
    static final long MAX_PAYMENT_WINDOW_HOURS = 24;

    /** A waiting room's arrival window: long enough for a slow phone to arrive, short enough to keep a sale a sale. */
    static final long MAX_ARRIVAL_WINDOW_MINUTES = 10;

    /** Far above what two instances serve; keeps a typo from letting the whole room in at once. */
    static final int MAX_ADMISSIONS_PER_SECOND = 100_000;

    private VoucherLimits() {
    }
}
