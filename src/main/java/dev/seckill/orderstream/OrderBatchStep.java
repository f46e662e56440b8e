package dev.seckill.orderstream;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

import dev.seckill.AsyncMode;
import dev.seckill.lock.HeldShopperLocks;
import dev.seckill.lock.SeckillLocks;
import dev.seckill.metrics.SaleMeters;
import dev.seckill.order.OrderBatchWriter.NewOrder;
import dev.seckill.order.OrderBatchWriter;
import dev.seckill.orderstream.OrderFailurePolicy.Decision;
import dev.seckill.salestate.ConsumerStream;
import dev.seckill.salestate.QueuedOrder;
import dev.seckill.salestate.SoldOutFlags;
import org.springframework.stereotype.Component;

/**
 * Settles one batch read from a voucher's stream: takes its shoppers' locks, keeps the orders still
 * pending, writes them in one transaction and acknowledges them once it committed. A batch that fails
 * for something other than an outage is split to find the order that spoils it; that order goes to the
 * failure policy. Outages are thrown to the caller untouched: they count nothing.
 */
@AsyncMode
@Component
class OrderBatchStep implements StreamPoller.BatchHandler {

    private final SeckillLocks locks;
    private final ConsumerStream stream;
    private final OrderBatchWriter writer;
    private final OrderFailurePolicy policy;
    private final SoldOutFlags soldOut;
    private final SaleMeters meters;
    private final PendingBacklog backlog;

    OrderBatchStep(SeckillLocks locks, ConsumerStream stream, OrderBatchWriter writer, OrderFailurePolicy policy,
            SoldOutFlags soldOut, SaleMeters meters, PendingBacklog backlog) {
        this.locks = locks;
        this.stream = stream;
        this.writer = writer;
        this.policy = policy;
        this.soldOut = soldOut;
        this.meters = meters;
        this.backlog = backlog;
    }

    @Override
    public StreamPoller.Outcome handle(long voucherId, List<QueuedOrder> batch) {
        // Every voucher with a backlog passes here on some instance: its pending gauges start here.
        backlog.track(voucherId);
        Set<Long> shoppers = new HashSet<>();
        batch.forEach(order -> shoppers.add(order.shopperId()));
        try (HeldShopperLocks held = locks.tryLockShoppers(voucherId, shoppers)) {
            Set<Long> locked = held.shoppers();
            List<QueuedOrder> mine = batch.stream().filter(o -> locked.contains(o.shopperId())).toList();
            // Orders whose shopper is locked elsewhere stay delivered to us for later.
            boolean leftForLater = mine.size() < batch.size();
            Set<Long> pending = stream.stillPending(voucherId, mine);
            // Orders no longer pending were acknowledged or given up by whoever held them before.
            List<QueuedOrder> todo = mine.stream().filter(o -> pending.contains(o.orderId())).toList();
            int retries = persist(voucherId, todo);
            return new StreamPoller.Outcome(todo.size() - retries, leftForLater || retries > 0);
        }
    }

    /** Returns how many orders are left to retry later. */
    private int persist(long voucherId, List<QueuedOrder> orders) {
        if (orders.isEmpty()) {
            return 0;
        }
        long start = System.nanoTime();
        try {
            Set<Long> there = writer.persist(voucherId, orders.stream().map(o -> new NewOrder(o.orderId(), o.shopperId(),
                    o.createdAtMillis())).toList());
            meters.mysqlWrite(System.nanoTime() - start);
            meters.written(voucherId, orders.size() - there.size());
        } catch (RuntimeException e) {
            if (FailureClassifier.classify(e).isOutage()) {
                throw e;
            }
            if (orders.size() > 1) {
                // Find the order that spoils the batch: one transaction each.
                return orders.stream().mapToInt(order -> persist(voucherId, List.of(order))).sum();
            }
            Decision decision = policy.failed(orders.get(0), e);
            if (decision == Decision.COMPENSATED) {
                meters.givenUp(voucherId, SaleMeters.GiveUpReason.COMPENSATED);
                soldOut.clear(voucherId); // its unit is back: let every instance sell it again
            } else if (decision == Decision.GAVE_UP_AS_DUPLICATE) {
                meters.givenUp(voucherId, SaleMeters.GiveUpReason.DUPLICATE);
            }
            return decision == Decision.RETRY_LATER ? 1 : 0;
        }
        // Outside the try: committed orders whose acknowledgement fails count no attempt. The failure
        // reaches the poller as an outage; the redelivery finds the orders in MySQL and acknowledges them.
        stream.acknowledge(voucherId, orders);
        return 0;
    }
}
