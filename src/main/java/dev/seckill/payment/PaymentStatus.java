package dev.seckill.payment;

/** Our record of one payment with the provider. Moves only forward, each move one guarded UPDATE. */
public enum PaymentStatus {
    /** Opened: the shopper may pay it at the provider's checkout. */
    OPEN,
    SUCCEEDED,
    /** The shopper abandoned it at the checkout; they may start another while the order awaits payment. */
    CANCELED,
    /** We closed it before the order ended unpaid: it can no longer be paid. */
    CLOSED,
    /** It succeeded after its order had ended unpaid: we asked for the money back. */
    REFUNDING,
    REFUNDED
}
