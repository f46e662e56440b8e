package dev.seckill.sandbox;

/** Where a payment stands on the provider's side, as {@code sandbox_payment.status} stores it. */
public enum SandboxStatus {
    /** Waiting for the shopper, until its pay-by time. */
    OPEN,
    PAID,
    /** The shopper abandoned it on the checkout page. */
    CANCELED,
    /** The merchant closed it before it was paid. */
    CLOSED,
    REFUNDED
}
