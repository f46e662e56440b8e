package dev.seckill.refusal;

/**
 * A request the sale turns down, with its {@link Reason}: an expected answer, thrown by the module that
 * decides it and answered by the web module. No stack trace: during a sale refusals come by the
 * thousand a second, and filling stack traces would cost real CPU.
 */
public class Refusal extends RuntimeException {

    private final Reason reason;
    private final long retryAfterSeconds;
    private final long orderId;

    public Refusal(Reason reason) {
        this(reason, reason.text());
    }

    public Refusal(Reason reason, String detail) {
        this(reason, detail, 0, 0);
    }

    /**
     * @param retryAfterSeconds when to come back, 0 for the reason's usual answer
     * @param orderId           the shopper's order the refusal is about (already ordered, unconfirmed), 0 if none
     */
    public Refusal(Reason reason, String detail, long retryAfterSeconds, long orderId) {
        super(detail, null, false, false);
        this.reason = reason;
        this.retryAfterSeconds = retryAfterSeconds;
        this.orderId = orderId;
    }

    /**
     * The shopper holds an order of this voucher already, named when a store could name it (0 otherwise:
     * the refusal stands either way), so a shopper whose first answer was lost finds their order.
     */
    public static Refusal alreadyOrdered(long existingOrderId) {
        return new Refusal(Reason.ALREADY_ORDERED, Reason.ALREADY_ORDERED.text(), 0, existingOrderId);
    }

    /**
     * Only with {@code seckill.redis.wait-replicas}: the master took the order, but the replicas did not
     * confirm it within the wait. The order exists and goes on to MySQL like any other, unless Redis fails
     * over to a replica that never got it; where to look it up is the next step, not sending it again.
     */
    public static Refusal unconfirmed(long orderId, long voucherId) {
        return new Refusal(Reason.ORDER_UNCONFIRMED, "Order " + orderId + " was taken but no Redis replica confirmed it "
                + "in time; GET /orders?voucherId=" + voucherId + " tells whether it stands", 0, orderId);
    }

    /**
     * The purchase call failed after it may have run (no answer in time, a connection lost while it was sent): the
     * order may have been taken, and may not. Not "nothing taken", which a shopper would take as a cue to buy again
     * while the order stands: the order is named, to be looked up.
     */
    public static Refusal outcomeUnknown(long orderId, long voucherId) {
        return new Refusal(Reason.ORDER_UNCONFIRMED, "Redis did not answer whether order " + orderId + " was taken; "
                + "GET /orders?voucherId=" + voucherId + " tells whether it stands", 0, orderId);
    }

    /**
     * The sync path's order transaction failed after it began, and MySQL could not be asked whether it committed
     * after all: the order may stand, under this id, to be looked up rather than bought again.
     */
    public static Refusal unconfirmedCommit(long orderId, long voucherId) {
        return new Refusal(Reason.ORDER_UNCONFIRMED, "MySQL did not answer whether order " + orderId + " was written; "
                + "GET /orders?voucherId=" + voucherId + " tells whether it stands", 0, orderId);
    }

    public Reason reason() {
        return reason;
    }

    public long retryAfterSeconds() {
        return retryAfterSeconds;
    }

    public long orderId() {
        return orderId;
    }
}
