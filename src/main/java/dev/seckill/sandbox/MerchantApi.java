package dev.seckill.sandbox;

import java.net.URI;
import java.time.Clock;
import java.time.Instant;
import java.util.Optional;

import org.springframework.dao.DuplicateKeyException;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Isolation;
import org.springframework.transaction.annotation.Transactional;

/**
 * The merchant's side of the sandbox provider: the calls the shop makes over {@code /sandbox/api/**}. Each move is one
 * guarded UPDATE whose row count decides, and when it was refused the payment's status is read to say why, in the
 * same transaction (READ COMMITTED: the read sees the move that beat the UPDATE, never an older snapshot in which a
 * payment the shopper had just paid still reads OPEN); its notification is queued in that transaction too.
 */
@Component
public class MerchantApi {

    /** What a payment is opened for, as the shop asks. */
    public record OpenRequest(long orderId, long amountCents, Instant payBy) {
    }

    public enum CloseOutcome {
        /** Closed now, or earlier (abandoned counts too): it can no longer be paid. */
        CLOSED,
        /** Refused: the shopper paid it already (a notification is on its way). */
        ALREADY_PAID,
        UNKNOWN
    }

    public enum RefundOutcome {
        /** Refunded now or before ({@code refund.succeeded} follows, at least once). */
        REFUNDED,
        NOT_PAID,
        UNKNOWN
    }

    private final SandboxPayments payments;
    private final Notifications notifications;
    private final SandboxSettings settings;
    private final Clock clock;

    MerchantApi(SandboxPayments payments, Notifications notifications, SandboxSettings settings, Clock clock) {
        this.payments = payments;
        this.notifications = notifications;
        this.settings = settings;
        this.clock = clock;
    }

    /**
     * A new payment each time, as providers do, unless {@code idempotencyKey} opened one before: then that one, as
     * it stands now. The key is how a shop whose answer was lost asks again without opening a second payment.
     *
     * @param idempotencyKey null for none
     * @throws IllegalArgumentException a negative amount, or a key used before for another order or amount
     */
    public SandboxPayment open(OpenRequest request, String idempotencyKey) {
        if (request.amountCents() < 0) {
            throw new IllegalArgumentException("A payment of " + request.amountCents() + " cents");
        }
        if (idempotencyKey != null) {
            Optional<SandboxPayment> opened = payments.findByIdempotencyKey(idempotencyKey);
            if (opened.isPresent()) {
                return sameRequest(opened.get(), request, idempotencyKey);
            }
        }
        SandboxPayment payment = new SandboxPayment(RandomRefs.payment(), request.orderId(), request.amountCents(),
                SandboxStatus.OPEN, request.payBy());
        try {
            payments.insert(payment, idempotencyKey, clock.instant());
        } catch (DuplicateKeyException sameKeyAtOnce) {
            return sameRequest(payments.findByIdempotencyKey(idempotencyKey).orElseThrow(), request, idempotencyKey);
        }
        return payment;
    }

    private static SandboxPayment sameRequest(SandboxPayment opened, OpenRequest request, String idempotencyKey) {
        if (opened.orderId() != request.orderId() || opened.amountCents() != request.amountCents()) {
            throw new IllegalArgumentException("Idempotency-Key " + idempotencyKey + " opened a payment of "
                    + opened.amountCents() + " cents for order " + opened.orderId() + ", not this one");
        }
        return opened;
    }

    /** The page where the shopper pays or abandons it. */
    public URI checkoutUrl(SandboxPayment payment) {
        return URI.create(settings.checkoutPath(payment.ref()));
    }

    @Transactional(isolation = Isolation.READ_COMMITTED)
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
    @Transactional(isolation = Isolation.READ_COMMITTED)
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

    /** Where the payment stands now; empty when there is no such payment. */
    public Optional<SandboxPayment> find(String paymentRef) {
        return payments.find(paymentRef);
    }
}
