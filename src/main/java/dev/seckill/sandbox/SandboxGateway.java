package dev.seckill.sandbox;

import java.net.URI;
import java.time.Clock;
import java.time.Instant;

import dev.seckill.payment.PaymentGateway;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;

/**
 * The merchant's side of the sandbox provider: the calls our payment module makes. Each move is one guarded UPDATE
 * whose row count decides, and when it was refused the payment's status is read to say why; its notification is
 * queued in the same transaction.
 * <p>
 * Close, refund and status are each a transaction of their own ({@code REQUIRES_NEW}), as a call to a real provider is:
 * it commits whatever the caller's transaction does afterwards (open joins the caller's: see there). Joined to the
 * caller's, the read that says why a close was refused used the caller's older snapshot: a payment the shopper had just
 * paid read OPEN, the close answered CLOSED, and the order expired with the money taken (refunded later, but a paid
 * order lost).
 */
@SandboxEnabled
@Component
class SandboxGateway implements PaymentGateway {

    private final SandboxPayments payments;
    private final Notifications notifications;
    private final SandboxSettings settings;
    private final Clock clock;

    SandboxGateway(SandboxPayments payments, Notifications notifications, SandboxSettings settings, Clock clock) {
        this.payments = payments;
        this.notifications = notifications;
        this.settings = settings;
        this.clock = clock;
    }

    /**
     * A new payment each time, as providers do: our side keeps the one it uses. Unlike the other calls it joins the
     * caller's transaction: it only inserts, so no older snapshot can mislead it, and the caller holds its order's row
     * lock across it; a transaction of its own would take a second connection while that is held.
     */
    @Override
    public Checkout open(CheckoutRequest request) {
        if (request.amountCents() < 0) {
            throw new IllegalArgumentException("A payment of " + request.amountCents() + " cents");
        }
        SandboxPayment payment = new SandboxPayment(RandomRefs.payment(), request.orderId(), request.amountCents(),
                SandboxStatus.OPEN, request.payBy());
        payments.insert(payment, clock.instant());
        return new Checkout(payment.ref(), URI.create(settings.checkoutPath(payment.ref())));
    }

    @Override
    @Transactional(propagation = Propagation.REQUIRES_NEW)
    public CloseOutcome close(String paymentRef) {
        if (payments.move(paymentRef, SandboxStatus.OPEN, SandboxStatus.CLOSED, clock.instant())) {
            return CloseOutcome.CLOSED;
        }
        return payments.find(paymentRef).map(payment -> switch (payment.status()) {
            case PAID, REFUNDED -> CloseOutcome.ALREADY_PAID;
            // OPEN: only a move back to OPEN could refuse us and read OPEN, and there is none
            case CANCELED, CLOSED, OPEN -> CloseOutcome.CLOSED;
        }).orElse(CloseOutcome.UNKNOWN);
    }

    /** @throws IllegalArgumentException when {@code amountCents} is not what was paid (no partial refunds here) */
    @Override
    @Transactional(propagation = Propagation.REQUIRES_NEW)
    public RefundOutcome refund(String paymentRef, long amountCents) {
        Instant now = clock.instant();
        if (payments.refund(paymentRef, amountCents, now)) {
            SandboxPayment refunded = payments.find(paymentRef).orElseThrow();
            notifications.queue(refunded, now, EventType.REFUND_SUCCEEDED);
            return RefundOutcome.REFUNDED;
        }
        return payments.find(paymentRef).map(payment -> {
            if (payment.amountCents() != amountCents) {
                throw new IllegalArgumentException("Payment " + paymentRef + " is of " + payment.amountCents()
                        + " cents, a refund of " + amountCents + " was asked");
            }
            return payment.status() == SandboxStatus.REFUNDED ? RefundOutcome.REFUNDED : RefundOutcome.NOT_PAID;
        }).orElse(RefundOutcome.UNKNOWN);
    }

    /** Read in a transaction of its own, like the other calls: never through a caller's older snapshot. */
    @Override
    @Transactional(propagation = Propagation.REQUIRES_NEW, readOnly = true)
    public PaymentState status(String paymentRef) {
        return payments.find(paymentRef).map(payment -> switch (payment.status()) {
            case OPEN -> PaymentState.OPEN;
            case PAID -> PaymentState.PAID;
            case CANCELED -> PaymentState.CANCELED;
            case CLOSED -> PaymentState.CLOSED;
            case REFUNDED -> PaymentState.REFUNDED;
        }).orElse(PaymentState.UNKNOWN);
    }
}
