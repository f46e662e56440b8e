package dev.seckill.payment;

import dev.seckill.order.OrderSettlement;
import dev.seckill.payment.PaymentGateway.PaymentState;
import dev.seckill.payment.PaymentRecords.Payment;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Isolation;
import org.springframework.transaction.annotation.Transactional;

/**
 * Handles one verified notification, once per event id, in one transaction: the event's row, the payment's move and the
 * order's move commit together or not at all (then the provider delivers it again). Delivered twice, late, or out of
 * order, it leaves the same result: payments and orders only move forward, each by a guarded UPDATE, so an older event
 * arriving after a newer one changes nothing.
 * <p>
 * A notification is a hint, the provider's API the truth: before a notification moves anything, the provider is asked
 * where the payment stands ({@link PaymentGateway#status}), and what it answers decides. One it contradicts for good
 * (a success for a payment it closed or never had) is recorded as handled, {@code NOT_PAID}, and changes nothing: a
 * stale or forged notification is no error to retry. One it does not confirm yet (a success for a payment it still
 * has open) is refused, nothing recorded, so its next delivery asks again; whatever happens meanwhile, the close
 * before the order ends asks the provider too.
 */
@Component
class NotificationHandler {

    private static final Logger log = LoggerFactory.getLogger(NotificationHandler.class);

    /** What handling a notification did, recorded with its event. */
    enum Outcome { PAID, ALREADY_PAID, REFUNDING, REFUNDED, CANCELED, IGNORED, DUPLICATE, NOT_PAID }

    private final PaymentRecords payments;
    private final OrderSettlement orders;
    private final PaymentGateway gateway;
    private final PaymentMeters meters;

    NotificationHandler(PaymentRecords payments, OrderSettlement orders, PaymentGateway gateway, PaymentMeters meters) {
        this.payments = payments;
        this.orders = orders;
        this.gateway = gateway;
        this.meters = meters;
    }

    @Transactional(isolation = Isolation.READ_COMMITTED)
    public Outcome handle(Notification event) {
        Payment payment = payments.find(event.payment().ref()).orElseThrow(() -> new PaymentRefusal(
                PaymentRefusal.Why.UNKNOWN_PAYMENT, "No payment " + event.payment().ref() + " was opened here"));
        if (!Long.toString(payment.orderId()).equals(event.payment().orderId())
                || payment.amountCents() != event.payment().amountCents()) {
            throw new PaymentRefusal(PaymentRefusal.Why.AMOUNT_MISMATCH, "Payment " + payment.ref() + " is "
                    + payment.amountCents() + " cents for order " + payment.orderId() + ", not "
                    + event.payment().amountCents() + " for order " + event.payment().orderId());
        }
        if (!payments.firstTime(event.id(), payment.ref(), event.type())) {
            return Outcome.DUPLICATE;
        }
        Outcome outcome = switch (event.type()) {
            case Notification.SUCCEEDED -> switch (atProvider(payment, event)) {
                // REFUNDED: it was paid; the refund's own notification follows this one.
                case PAID, REFUNDED -> succeeded(payment);
                case OPEN -> throw notSettled(payment, event, PaymentState.OPEN);
                case CANCELED, CLOSED, UNKNOWN -> contradicted(payment, event);
            };
            case Notification.CANCELED -> switch (atProvider(payment, event)) {
                case CANCELED -> payments.move(payment.ref(), PaymentStatus.CANCELED, PaymentStatus.OPEN)
                        ? Outcome.CANCELED : Outcome.IGNORED;
                case OPEN -> throw notSettled(payment, event, PaymentState.OPEN);
                // Paid, closed or refunded since: a later notification, or the close, says so.
                case PAID, CLOSED, REFUNDED, UNKNOWN -> Outcome.IGNORED;
            };
            case Notification.REFUNDED -> switch (atProvider(payment, event)) {
                case REFUNDED -> refunded(payment);
                case PAID -> throw notSettled(payment, event, PaymentState.PAID);
                case OPEN, CANCELED, CLOSED, UNKNOWN -> contradicted(payment, event);
            };
            // payment.processing, and types a provider adds later: nothing to do, and nothing to retry
            default -> Outcome.IGNORED;
        };
        payments.outcome(event.id(), outcome.name());
        meters.notification(event.type(), outcome.name());
        return outcome;
    }

    private PaymentState atProvider(Payment payment, Notification event) {
        try {
            return gateway.status(payment.ref());
        } catch (RuntimeException unreachable) {
            throw new PaymentRefusal(PaymentRefusal.Why.PROVIDER_UNAVAILABLE, "The provider could not be asked where "
                    + "payment " + payment.ref() + " stands, for " + event.type() + " " + event.id());
        }
    }

    private static PaymentRefusal notSettled(Payment payment, Notification event, PaymentState state) {
        return new PaymentRefusal(PaymentRefusal.Why.NOT_SETTLED, "The provider reports payment " + payment.ref()
                + " as " + state + ", not what " + event.type() + " " + event.id() + " says; nothing was done");
    }

    /** The provider says the payment was never paid: whoever sent this, nothing is to move and nothing to refund. */
    private static Outcome contradicted(Payment payment, Notification event) {
        log.warn("Notification {} ({}) for payment {} of order {} is contradicted by the provider, which never had it "
                + "paid: nothing done", event.id(), event.type(), payment.ref(), payment.orderId());
        return Outcome.NOT_PAID;
    }

    /**
     * The order first, then the payment: the order the expiry and a cancel lock them in (order row, then its payments),
     * so a notification arriving while an order ends waits instead of deadlocking with it.
     */
    private Outcome succeeded(Payment payment) {
        OrderSettlement.Paid order = orders.paid(payment.orderId());
        // From any state but the refund's: the provider says it was paid, even if our record says we closed it or saw
        // it abandoned (our close raced the shopper's click at the provider, or was lost there); the order decides
        // what it means.
        if (!payments.move(payment.ref(), PaymentStatus.SUCCEEDED, PaymentStatus.OPEN, PaymentStatus.CLOSED,
                PaymentStatus.CANCELED)) {
            // Succeeded before (the expiry's close found it paid and recorded both), or already refunding or refunded.
            return Outcome.IGNORED;
        }
        return switch (order) {
            case PAID -> Outcome.PAID;
            case ALREADY_PAID -> {
                if (payments.ofOrder(payment.orderId()).stream().noneMatch(other -> !other.ref().equals(payment.ref())
                        && other.status() == PaymentStatus.SUCCEEDED)) {
                    yield Outcome.ALREADY_PAID;
                }
                // Paid twice (two checkouts of one order opened at once): the second payment goes back.
                log.warn("Order {} was paid already; payment {} is refunded", payment.orderId(), payment.ref());
                yield refund(payment);
            }
            case TOO_LATE, UNKNOWN_ORDER -> {
                log.warn("Payment {} succeeded after order {} ended unpaid: refunded, never sold twice", payment.ref(),
                        payment.orderId());
                yield refund(payment);
            }
        };
    }

    private Outcome refund(Payment payment) {
        payments.move(payment.ref(), PaymentStatus.REFUNDING, PaymentStatus.SUCCEEDED);
        PaymentGateway.RefundOutcome refund = gateway.refund(payment.ref(), payment.amountCents());
        if (refund != PaymentGateway.RefundOutcome.REFUNDED) {
            // It said PAID a moment ago: its two answers disagree. Nothing is kept; the next delivery asks again.
            throw new PaymentRefusal(PaymentRefusal.Why.NOT_SETTLED, "The provider refused to refund payment "
                    + payment.ref() + " (" + refund + ") it reported paid; nothing was done");
        }
        meters.refundRequested();
        return Outcome.REFUNDING;
    }

    private Outcome refunded(Payment payment) {
        if (!payments.move(payment.ref(), PaymentStatus.REFUNDED, PaymentStatus.REFUNDING, PaymentStatus.SUCCEEDED)) {
            return Outcome.IGNORED;
        }
        orders.refunded(payment.orderId());
        return Outcome.REFUNDED;
    }
}
