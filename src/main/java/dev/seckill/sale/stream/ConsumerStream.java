package dev.seckill.sale.stream;

import dev.seckill.salestate.QueuedOrder;

import java.util.Collection;
import java.util.List;
import java.util.Set;

/**
 * What the async path's consumers need of the voucher streams ({@link OrderStream} in Redis): narrow, so
 * their timing and failure policy can be tested against a fake.
 */
interface ConsumerStream {

    Set<Long> registeredVouchers();

    /** Creates the stream and its group if either is missing (after a NOGROUP error, too). */
    void ensureGroup(long voucherId);

    void unregister(long voucherId);

    /** Accepted orders of this voucher not in MySQL yet. */
    long pendingOrders(long voucherId);

    List<QueuedOrder> readNew(long voucherId, String consumer, int count);

    List<QueuedOrder> readOwnPending(long voucherId, String consumer, int count);

    List<QueuedOrder> claimIdle(long voucherId, String consumer, int count);

    Set<Long> stillPending(long voucherId, Collection<QueuedOrder> orders);

    /** The orders are in MySQL: acknowledged, no longer pending. */
    void acknowledge(long voucherId, Collection<QueuedOrder> orders);

    long recordFailedAttempt(QueuedOrder order);

    /** Compensates: the unit back, the shopper free to buy again, FAILED, dead-lettered. True if this call did it. */
    boolean giveUp(QueuedOrder order, String reason);

    /**
     * For an order refused because its shopper holds another, confirmed order of the voucher: FAILED and
     * dead-lettered, but no unit back and the shopper stays a buyer (the confirmed order holds both).
     * True if this call did it.
     */
    boolean giveUpAsDuplicate(QueuedOrder order, String reason);
}
