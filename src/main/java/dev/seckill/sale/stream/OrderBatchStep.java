package dev.seckill.sale.stream;

import dev.seckill.sale.PendingBacklog;
import dev.seckill.sale.UnitsBack;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import dev.seckill.AsyncMode;
import dev.seckill.salestate.HeldLock;
import dev.seckill.salestate.SeckillLocks;
import dev.seckill.sale.SaleMeters;
import dev.seckill.order.NewOrderWriter.NewOrder;
import dev.seckill.order.NewOrderWriter;
import dev.seckill.sale.stream.OrderFailurePolicy.Decision;
import dev.seckill.salestate.QueuedOrder;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.stereotype.Component;

/**
 * Settles one batch read from a voucher's stream: under the shared side of the voucher's order-writes lock,
 * keeps the orders still pending, writes them in one transaction and acknowledges them once it committed.
 * A batch that fails for something other than an outage is split to find the order that spoils it; that
 * order goes to the failure policy once the lock is released (a give-up takes it alone). Outages are
 * thrown to the caller untouched: they count nothing.
 */
@AsyncMode
@Component
class OrderBatchStep implements StreamPoller.BatchHandler {

    private final SeckillLocks locks;
    private final ConsumerStream stream;
    private final NewOrderWriter writer;
    private final OrderFailurePolicy policy;
    private final ApplicationEventPublisher events;
    private final SaleMeters meters;
    private final PendingBacklog backlog;

    OrderBatchStep(SeckillLocks locks, ConsumerStream stream, NewOrderWriter writer, OrderFailurePolicy policy,
            ApplicationEventPublisher events, SaleMeters meters, PendingBacklog backlog) {
        this.locks = locks;
        this.stream = stream;
        this.writer = writer;
        this.policy = policy;
        this.events = events;
        this.meters = meters;
        this.backlog = backlog;
    }

    @Override
    public StreamPoller.Outcome handle(long voucherId, List<QueuedOrder> batch) {
        // Every voucher with a backlog passes here on some instance: its pending gauges start here.
        backlog.track(voucherId);
        List<FailedOrder> failed = new ArrayList<>();
        int considered;
        Optional<HeldLock> writing = locks.tryLockOrderWrites(voucherId);
        if (writing.isEmpty()) {
            // A give-up of this voucher is deciding: the whole batch stays delivered to us for later.
            return new StreamPoller.Outcome(0, true);
        }
        try (HeldLock held = writing.get()) {
            Set<Long> pending = stream.stillPending(voucherId, batch);
            // Orders no longer pending were acknowledged or given up by whoever held them before.
            List<QueuedOrder> todo = batch.stream().filter(o -> pending.contains(o.orderId())).toList();
            persist(voucherId, todo, failed);
            considered = todo.size();
        }
        // After the shared lock is released: a give-up takes the voucher's order-writes lock alone.
        int retries = 0;
        for (FailedOrder order : failed) {
            retries += decide(voucherId, order);
        }
        return new StreamPoller.Outcome(considered - retries, retries > 0);
    }

    /** An order that failed on its own (its batch split down to it), for the failure policy. */
    private record FailedOrder(QueuedOrder order, RuntimeException failure) {
    }

    /** Writes the orders; the ones that fail on their own are added to {@code failed}. */
    private void persist(long voucherId, List<QueuedOrder> orders, List<FailedOrder> failed) {
        if (orders.isEmpty()) {
            return;
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
                orders.forEach(order -> persist(voucherId, List.of(order), failed));
                return;
            }
            failed.add(new FailedOrder(orders.get(0), e));
            return;
        }
        // Outside the try: committed orders whose acknowledgement fails count no attempt. The failure
        // reaches the poller as an outage; the redelivery finds the orders in MySQL and acknowledges them.
        stream.acknowledge(voucherId, orders);
    }

    /** Returns 1 if the order is left to retry later, else 0. */
    private int decide(long voucherId, FailedOrder failed) {
        Decision decision = policy.failed(failed.order(), failed.failure());
        if (decision == Decision.COMPENSATED) {
            meters.givenUp(voucherId, SaleMeters.GiveUpReason.COMPENSATED);
            events.publishEvent(new UnitsBack(voucherId)); // let every instance sell it again
        } else if (decision == Decision.GAVE_UP_AS_DUPLICATE) {
            meters.givenUp(voucherId, SaleMeters.GiveUpReason.DUPLICATE);
        }
        return decision == Decision.RETRY_LATER ? 1 : 0;
    }
}
