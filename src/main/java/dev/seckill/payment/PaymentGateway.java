package dev.seckill.payment;

import java.net.URI;
import java.time.Instant;

/**
 * The payment provider, as every real one works: we open a payment and send the shopper to its checkout page,
 * the provider tells our webhook what happened (signed, at least once, in any order), and we may close an
 * unpaid payment or refund a paid one. The sandbox adapter ({@code dev.seckill.sandbox}) is the one here.
 * Every call is idempotent on the provider's side for the same payment.
 */
public interface PaymentGateway {

    /**
     * @param orderId     our order, echoed back in every notification of the payment
     * @param amountCents what the shopper must pay
     * @param payBy       the provider refuses payment after this (we close the payment at expiry anyway)
     */
    record CheckoutRequest(long orderId, long amountCents, Instant payBy) {
    }

    /** A payment the provider opened: its reference, and the page where the shopper pays or abandons it. */
    record Checkout(String paymentRef, URI checkoutUrl) {
    }

    Checkout open(CheckoutRequest request);

    enum CloseOutcome {
        /** Closed now, or earlier: it can no longer be paid. */
        CLOSED,
        /** Refused: the shopper paid it already (a notification is on its way). */
        ALREADY_PAID,
        /** The provider has no such payment. */
        UNKNOWN
    }

    /** Asks the provider to close an unpaid payment so that it can no longer be paid, as providers require before an order is given up. */
    CloseOutcome close(String paymentRef);

    enum RefundOutcome {
        /** Refunded now or before (a {@code refund.succeeded} notification follows, at least once). */
        REFUNDED,
        /** Nothing was paid, so there is nothing to refund. */
        NOT_PAID,
        UNKNOWN
    }

    RefundOutcome refund(String paymentRef, long amountCents);
}
