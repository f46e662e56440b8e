package dev.seckill.payment;

import java.net.URI;
import java.time.Instant;

/**
 * The payment provider, as every real one works: we open a payment and send the shopper to its checkout page,
 * the provider tells our webhook what happened (signed, at least once, in any order), and we may close an
 * unpaid payment, refund a paid one, or ask where one stands. The adapter is {@link HttpPaymentGateway}, which calls
 * the provider's API over HTTP (the sandbox provider's, a process of its own). Every call is idempotent on the
 * provider's side for the same payment, and throws an unchecked exception when the provider cannot be asked.
 */
public interface PaymentGateway {

    /**
     * @param orderId        our order, echoed back in every notification of the payment
     * @param amountCents    what the shopper must pay
     * @param payBy          the provider refuses payment after this (we close the payment at expiry anyway)
     * @param idempotencyKey the same for every try of one opening: the provider opens one payment per key, so a try
     *                       whose answer was lost, asked again, gets the payment it opened rather than a second one
     */
    record CheckoutRequest(long orderId, long amountCents, Instant payBy, String idempotencyKey) {
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

    /** Where a payment stands on the provider's side, as its API answers now. */
    enum PaymentState {
        /** Waiting for the shopper to pay. */
        OPEN,
        PAID,
        /** The shopper abandoned it at the checkout: it was never paid. */
        CANCELED,
        /** We closed it before it was paid: it never will be. */
        CLOSED,
        /** Paid, then the money went back. */
        REFUNDED,
        /** The provider has no such payment. */
        UNKNOWN
    }

    /**
     * The payment's state as the provider knows it now. A notification is a hint that something happened; this is the
     * truth it is checked against before anything is done about it, as providers advise.
     */
    PaymentState status(String paymentRef);
}
