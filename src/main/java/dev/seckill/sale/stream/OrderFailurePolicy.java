package dev.seckill.sale.stream;

import dev.seckill.order.GiveUpLookup;

import java.util.List;
import java.util.Optional;

import dev.seckill.AsyncMode;
import dev.seckill.salestate.HeldLock;
import dev.seckill.salestate.SeckillLocks;
import dev.seckill.sale.stream.FailureClassifier.Failure;
import dev.seckill.salestate.QueuedOrder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * Decides what one order that failed on its own (a batch already split down to it) comes to. Only the
 * order's own fault counts an attempt; an outage is thrown back for the poller to wait out. After
 * {@code maxAttempts} it is given up, but MySQL is asked first, because only an order that is not
 * there may be compensated: one already written (a commit whose acknowledgement was lost, a rival
 * consumer) is acknowledged, and one refused because its shopper holds another confirmed order keeps
 * its unit and its buyer.
 */
@AsyncMode
@Component
class OrderFailurePolicy {

    private static final Logger log = LoggerFactory.getLogger(OrderFailurePolicy.class);

    enum Decision {
        /** An attempt counted; the order stays delivered to this consumer and is tried again later. */
        RETRY_LATER,
        /** It was in MySQL after all: acknowledged. */
        ACKNOWLEDGED,
        /** Given up without compensation: its shopper holds another confirmed order of the voucher. */
        GAVE_UP_AS_DUPLICATE,
        /** Given up and compensated by this call: a unit is back on sale. */
        COMPENSATED,
        /** Someone else gave it up first. */
        GIVEN_UP_ALREADY
    }

    private final ConsumerStream stream;
    private final GiveUpLookup mysql;
    private final SeckillLocks locks;
    private final int maxAttempts;

    OrderFailurePolicy(ConsumerStream stream, GiveUpLookup mysql, SeckillLocks locks, StreamSettings settings) {
        this.stream = stream;
        this.mysql = mysql;
        this.locks = locks;
        this.maxAttempts = settings.maxAttempts();
    }

    /**
     * @throws RuntimeException the failure itself when it is an outage (or an
     *         {@link FailureClassifier.OutageException}): nothing was counted
     */
    Decision failed(QueuedOrder order, RuntimeException failure) {
        Failure kind = FailureClassifier.classify(failure);
        if (kind == Failure.UNKNOWN) {
            // Nothing says whose fault it is. If either backend does not answer, it is most likely an
            // outage and costs nothing; if both do, it counts like the order's own fault, so that an order
            // that trips a bug ends up dead-lettered for people to look at instead of being retried for
            // ever. Giving up asks MySQL first, so an order that got written is never compensated.
            if (!backendsAnswer()) {
                throw new FailureClassifier.OutageException("MySQL or Redis does not answer", failure);
            }
            kind = Failure.ORDER_FAULT;
        }
        if (kind.isOutage()) {
            throw failure;
        }
        long attempts = stream.recordFailedAttempt(order);
        if (attempts < maxAttempts) {
            log.warn("Order {} failed attempt {} of {}: {}", order.orderId(), attempts, maxAttempts, failure.toString());
            return Decision.RETRY_LATER;
        }
        return giveUp(order, attempts, reason(failure));
    }

    /**
     * Alone with the voucher's order writes: no consumer that holds this order too (after a claim) can
     * commit it between MySQL's answer and the compensation.
     */
    private Decision giveUp(QueuedOrder order, long attempts, String reason) {
        Optional<HeldLock> alone = locks.lockOrderWritesExclusively(order.voucherId());
        if (alone.isEmpty()) {
            log.warn("Order {} failed {} attempts; the voucher's order writes did not pause for its give-up: "
                    + "tried again later", order.orderId(), attempts);
            return Decision.RETRY_LATER;
        }
        try (HeldLock held = alone.get()) {
            return giveUpAlone(order, attempts, reason);
        }
    }

    private Decision giveUpAlone(QueuedOrder order, long attempts, String reason) {
        switch (mysql.find(order)) {
            case THIS_ORDER -> {
                stream.acknowledge(order.voucherId(), List.of(order));
                log.warn("Order {} failed {} attempts but is in MySQL: acknowledged, not compensated ({})",
                        order.orderId(), attempts, reason);
                return Decision.ACKNOWLEDGED;
            }
            case OTHER_ORDER -> {
                boolean done = stream.giveUpAsDuplicate(order, "shopper holds another confirmed order: " + reason);
                log.error("Gave up on order {} of shopper {} (voucher {}) after {} attempts: the shopper holds another "
                        + "confirmed order; no unit returned: {}", order.orderId(), order.shopperId(), order.voucherId(),
                        attempts, reason);
                return done ? Decision.GAVE_UP_AS_DUPLICATE : Decision.GIVEN_UP_ALREADY;
            }
            default -> {
                if (!stream.giveUp(order, reason)) {
                    return Decision.GIVEN_UP_ALREADY;
                }
                log.error("Gave up on order {} of shopper {} (voucher {}) after {} attempts, compensated: {}",
                        order.orderId(), order.shopperId(), order.voucherId(), attempts, reason);
                return Decision.COMPENSATED;
            }
        }
    }

    private boolean backendsAnswer() {
        if (!mysql.answers()) {
            return false;
        }
        try {
            stream.registeredVouchers();
            return true;
        } catch (RuntimeException redisDown) {
            return false;
        }
    }

    private static String reason(RuntimeException failure) {
        String reason = failure.getClass().getSimpleName() + ": " + failure.getMessage();
        return reason.length() > 500 ? reason.substring(0, 500) : reason;
    }
}
