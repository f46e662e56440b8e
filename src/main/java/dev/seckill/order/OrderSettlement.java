package dev.seckill.order;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

import dev.seckill.refusal.Reason;
import dev.seckill.refusal.Refusal;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;

/**
 * How an order awaiting payment is settled: the shopper pays it (started here, confirmed by the payment module) or
 * cancels it, and a payment that came after it ended unpaid is refunded. Every move is decided by
 * one guarded statement in MySQL ({@link OrderTransitions}); what this class reads first only chooses the answer to give
 * when the move is refused.
 * <p>
 * A shopper whose order expired or was cancelled does not buy the same voucher again: the order stays theirs (the
 * unique key on shopper and voucher, and the buyer set in Redis, keep naming it), so both order paths answer
 * already-ordered with it. Otherwise a bot could hold a unit for a whole window, let it go, and take it again at
 * once, for ever.
 */
@Service
public class OrderSettlement {

    private final OrderRepository orders;
    private final OwnOrders ownOrders;
    private final OrderTransitions transitions;
    private final PaymentClosing payments;
    private final UnitsBackToRedis redis;
    private final MeterRegistry meters;

    OrderSettlement(OrderRepository orders, OwnOrders ownOrders, OrderTransitions transitions, PaymentClosing payments,
            UnitsBackToRedis redis, MeterRegistry meters) {
        this.orders = orders;
        this.ownOrders = ownOrders;
        this.transitions = transitions;
        this.payments = payments;
        this.redis = redis;
        this.meters = meters;
    }

    /** An order its shopper may pay now: the amount comes from the voucher, the deadline from the order. */
    public record Payable(long orderId, long voucherId, Instant payBy) {
    }

    /**
     * The shopper's own order, if it is awaiting payment.
     *
     * @throws Refusal order-not-found (also someone else's), order-on-its-way, order-paid, order-expired,
     *                 order-cancelled, order-refunded
     */
    public Payable payable(long orderId, long shopperId) {
        OrderView order = own(orderId, shopperId);
        if (order.status() != OrderStatus.AWAITING_PAYMENT) {
            throw refusalFor(order.status());
        }
        return new Payable(orderId, order.voucherId(), order.payBy());
    }

    /**
     * {@link #payable}, decided with the order's row locked until the caller's transaction ends: of the requests that
     * start paying one order at once, each decides after the one before it has committed the payment it opened, so
     * that one payment is opened for the order, not one per request. A cancel or the expiry waits for the lock too.
     *
     * @throws Refusal as {@link #payable}
     */
    @Transactional(propagation = Propagation.MANDATORY)
    public Payable payableLocked(long orderId, long shopperId) {
        transitions.lockOwn(orderId, shopperId);
        return payable(orderId, shopperId);
    }

    /**
     * Cancels the shopper's own order awaiting payment: its open payments are closed with the provider first, then one
     * guarded UPDATE ends it and returns its unit to MySQL's stock, then the unit goes back to Redis. Cancelling a
     * cancelled order answers it again (a retried request); any other state is refused.
     *
     * @throws Refusal as {@link #payable}, and payment-unavailable when the provider cannot close a payment
     */
    public OrderView cancel(long orderId, long shopperId) {
        OrderView order = own(orderId, shopperId);
        if (order.status() == OrderStatus.CANCELLED) {
            return order;
        }
        if (order.status() != OrderStatus.AWAITING_PAYMENT) {
            throw refusalFor(order.status());
        }
        PaymentClosing.Closed closed;
        try {
            closed = payments.closeOpenPayments(orderId);
        } catch (RuntimeException providerUnreachable) {
            throw new Refusal(Reason.PAYMENT_UNAVAILABLE);
        }
        if (closed == PaymentClosing.Closed.PAID) {
            transitions.pay(orderId);
            count(OrderStatus.PAID);
            throw new Refusal(Reason.ORDER_PAID);
        }
        if (transitions.cancel(orderId, shopperId, order.voucherId())) {
            count(OrderStatus.CANCELLED);
            redis.giveBack(List.of(new OrderTransitions.Ended(orderId, order.voucherId(), order.payBy())));
            return ownOrders.findOwn(orderId, shopperId);
        }
        // Lost a race (the expiry, a payment, another cancel): the state it lost to is the answer.
        OrderView now = own(orderId, shopperId);
        if (now.status() == OrderStatus.CANCELLED) {
            return now;
        }
        throw refusalFor(now.status());
    }

    public enum Paid {
        /** Paid now. */
        PAID,
        /** Paid before: a notification delivered again. */
        ALREADY_PAID,
        /** It ended unpaid first (expired, cancelled, refunded): the money must go back. */
        TOO_LATE,
        UNKNOWN_ORDER
    }

    /** A payment succeeded for the order (the provider's notification): AWAITING_PAYMENT -> PAID, guarded. */
    public Paid paid(long orderId) {
        if (transitions.pay(orderId)) {
            count(OrderStatus.PAID);
            return Paid.PAID;
        }
        Optional<OrderStatus> status = orders.findById(orderId).map(VoucherOrder::status);
        if (status.isEmpty()) {
            return Paid.UNKNOWN_ORDER;
        }
        return status.get() == OrderStatus.PAID ? Paid.ALREADY_PAID : Paid.TOO_LATE;
    }

    /** The payment that came too late went back to the shopper: EXPIRED or CANCELLED -> REFUNDED, guarded. */
    public void refunded(long orderId) {
        if (transitions.refunded(orderId)) {
            count(OrderStatus.REFUNDED);
        }
    }

    private OrderView own(long orderId, long shopperId) {
        OrderView order = ownOrders.findOwn(orderId, shopperId);
        if (order.status() == OrderStatus.PENDING) {
            throw new Refusal(Reason.ORDER_ON_ITS_WAY);
        }
        if (order.status() == OrderStatus.FAILED) {
            throw new Refusal(Reason.ORDER_NOT_FOUND, "Order " + orderId + " failed: it was never placed");
        }
        return order;
    }

    private static Refusal refusalFor(OrderStatus status) {
        return switch (status) {
            case PAID -> new Refusal(Reason.ORDER_PAID);
            case EXPIRED -> new Refusal(Reason.ORDER_EXPIRED);
            case CANCELLED -> new Refusal(Reason.ORDER_CANCELLED);
            case REFUNDED -> new Refusal(Reason.ORDER_REFUNDED);
            case PENDING -> new Refusal(Reason.ORDER_ON_ITS_WAY);
            case AWAITING_PAYMENT, FAILED -> new Refusal(Reason.ORDER_NOT_FOUND);
        };
    }

    private void count(OrderStatus status) {
        meters.counter("seckill.orders.ended", "status", status.name()).increment();
    }
}
