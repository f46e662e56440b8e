package dev.seckill.order;

/**
 * An order's life. PENDING and FAILED exist only in Redis, on the async path's way to MySQL; MySQL holds the rest and
 * referees every move between them, each one guarded UPDATE ({@link OrderTransitions}).
 * <pre>
 * PENDING -> AWAITING_PAYMENT -> PAID
 *                             -> EXPIRED    (pay_by passed: its unit goes back on sale)
 *                             -> CANCELLED  (by its shopper: its unit goes back on sale)
 * EXPIRED or CANCELLED -> REFUNDED           (a payment arrived anyway, and went back to the shopper)
 * </pre>
 */
public enum OrderStatus {
    PENDING, AWAITING_PAYMENT, PAID, EXPIRED, CANCELLED, REFUNDED, FAILED;

    /** Whether the order holds a unit of the voucher's stock (the others gave theirs back, or never took one in MySQL). */
    public boolean holdsUnit() {
        return this == AWAITING_PAYMENT || this == PAID;
    }
}
