package dev.seckill.sandbox;

import java.time.Clock;
import java.time.Instant;
import java.util.Optional;

import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Transactional;

/**
 * The shopper's side of the sandbox provider, behind its checkout page: pay or abandon an open payment. Like the
 * merchant's calls, each is one guarded UPDATE, its notifications queued in the same transaction; a payment moved
 * by someone else first (the merchant closed it, another tab paid it) is answered with what it is now.
 */
@Component
public class SandboxCheckout {

    public enum Outcome {
        /** This call paid or abandoned it. */
        DONE,
        /** It is no longer open: see the payment's status. */
        NOT_OPEN,
        /** Still open, but its pay-by time has passed: the merchant will close it. */
        TOO_LATE
    }

    /** What a shopper's action did, and the payment as it is after it. */
    public record Result(Outcome outcome, SandboxPayment payment) {
    }

    private final SandboxPayments payments;
    private final Notifications notifications;
    private final Clock clock;

    SandboxCheckout(SandboxPayments payments, Notifications notifications, Clock clock) {
        this.payments = payments;
        this.notifications = notifications;
        this.clock = clock;
    }

    public Optional<SandboxPayment> find(String ref) {
        return payments.find(ref);
    }

    /** Pays it: {@code payment.processing} then {@code payment.succeeded} follow. Empty for an unknown reference. */
    @Transactional
    public Optional<Result> pay(String ref) {
        Instant now = clock.instant();
        if (payments.pay(ref, now)) {
            SandboxPayment paid = payments.find(ref).orElseThrow();
            notifications.queue(paid, now, EventType.PAYMENT_PROCESSING, EventType.PAYMENT_SUCCEEDED);
            return Optional.of(new Result(Outcome.DONE, paid));
        }
        return refused(ref, Outcome.TOO_LATE);
    }

    /** The shopper gives it up: {@code payment.canceled} follows. Empty for an unknown reference. */
    @Transactional
    public Optional<Result> abandon(String ref) {
        Instant now = clock.instant();
        if (payments.move(ref, SandboxStatus.OPEN, SandboxStatus.CANCELED, now)) {
            SandboxPayment canceled = payments.find(ref).orElseThrow();
            notifications.queue(canceled, now, EventType.PAYMENT_CANCELED);
            return Optional.of(new Result(Outcome.DONE, canceled));
        }
        return refused(ref, Outcome.NOT_OPEN);
    }

    /**
     * Why the guarded UPDATE moved nothing. Read after it, never before: the transaction's snapshot (REPEATABLE READ)
     * is taken at its first plain read, and one taken before the UPDATE would not show the move that beat us.
     */
    private Optional<Result> refused(String ref, Outcome whenStillOpen) {
        return payments.find(ref).map(current ->
                new Result(current.status() == SandboxStatus.OPEN ? whenStillOpen : Outcome.NOT_OPEN, current));
    }
}
