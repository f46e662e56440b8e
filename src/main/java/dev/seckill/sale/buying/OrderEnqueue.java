package dev.seckill.sale.buying;

import dev.seckill.sale.failover.ReplicaSettings;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.function.LongFunction;

import dev.seckill.AsyncMode;
import dev.seckill.sale.SaleMeters;
import dev.seckill.sale.buying.PurchaseDecision.Decision;
import dev.seckill.sale.buying.PurchaseDecision.Keeping;
import dev.seckill.sale.buying.PurchaseDecision.Outcome;
import dev.seckill.sale.failover.RedisDeployment;
import dev.seckill.sale.failover.AcceptedOrdersJournal;
import dev.seckill.voucher.SaleWindowCache;
import org.redisson.api.RedissonClient;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;

/**
 * The decision of the asynchronous path: the purchase script ({@link PurchaseDecision}, queueing) decides and
 * queues an order atomically, in a call shared by the concurrent orders of a voucher ({@link EnqueueCoalescer}).
 */
@AsyncMode
@Component
public class OrderEnqueue {

    private final ReplicaSettings replicas;
    /** {@code seckill.redis.wait-replicas}, or its default for this deployment. */
    private final int waitReplicas;
    private final PurchaseDecision purchases;
    private final EnqueueCoalescer coalescer;
    private final PurchaseAttempts attempts;
    private final AcceptedOrdersJournal journal;
    /** Whether a voucher's orders carry tickets: the orders of one call, all of one voucher, share the answer. */
    private final LongFunction<PurchaseDecision.Tickets> ticketsFor;

    @Autowired
    OrderEnqueue(PurchaseDecision purchases, ReplicaSettings replicas, EnqueueSettings enqueueing, SaleMeters meters,
            TicketAdmission admission, SaleWindowCache windows, AcceptedOrdersJournal journal, RedissonClient redisson) {
        // Every order here passed its voucher's window: one missing now would be asked a ticket, never let through.
        this(purchases, replicas, enqueueing, meters,
                voucherId -> windows.find(voucherId).map(admission::asked).orElse(PurchaseDecision.Tickets.ASKED),
                journal, redisson);
    }

    OrderEnqueue(PurchaseDecision purchases, ReplicaSettings replicas, EnqueueSettings enqueueing, SaleMeters meters,
            LongFunction<PurchaseDecision.Tickets> ticketsFor, AcceptedOrdersJournal journal, RedissonClient redisson) {
        this.journal = journal;
        this.waitReplicas = replicas.replicasToWaitFor(RedisDeployment.failsOver(redisson));
        this.ticketsFor = ticketsFor;
        this.replicas = replicas;
        this.purchases = purchases;
        this.attempts = new PurchaseAttempts(enqueueing);
        this.coalescer = new EnqueueCoalescer(this::enqueueBatch, enqueueing.maxBatch(), ANSWER_DEADLINE,
                meters::enqueueCall);
        meters.bindEnqueueCounts(coalescer::calls, coalescer::orders);
    }

    /**
     * The longest an order waits for its answer, whether its call is slow or it waits in its voucher's lane behind
     * one that is: then it fails, as {@link PurchaseAttempts.OutcomeUnknown} if its call was sent, with an outage if
     * it never left the lane. Well below the web layer's own limit (25 s, under Nginx's 30 s), which cannot tell the
     * two apart, and about as long as the longest call (five attempts of Redisson's 3 s, four waits of at most 2 s:
     * 23 s): a call still out then is unknown either way.
     */
    static final Duration ANSWER_DEADLINE = Duration.ofSeconds(22);

    /**
     * What the purchase script decided for the order. {@code unconfirmed}: accepted by the master, but fewer
     * replicas than {@code seckill.redis.wait-replicas} confirmed it within {@code wait-timeout}; the order
     * stands (it goes on to MySQL), only its survival of a failover is unconfirmed. Only with the opt-in.
     */
    public record Enqueue(Decision decision, boolean unconfirmed) {

        public Outcome outcome() {
            return decision.outcome();
        }

        /** For {@code ALREADY_BOUGHT}: the shopper's order when Redis knows it, else 0 (look in MySQL). */
        public long existingOrderId() {
            return decision.existingOrderId();
        }
    }

    /**
     * The one Redis call of an async order: decides and queues atomically. When the shopper already
     * bought, the same call answers which order is theirs, so naming it costs no second round trip.
     * Concurrent orders of the voucher share the call ({@link EnqueueCoalescer}); each gets its own answer.
     * With {@code seckill.redis.wait-replicas} set, the call carries a WAIT for that many replicas in the
     * same pipeline, and an order they did not all confirm in time is {@code UNCONFIRMED}. {@code ticket} is the
     * request's (null for none).
     *
     * @throws RuntimeException what Redisson threw for the call when no attempt of it can have run the script (an
     *                          outage: nothing was taken), or {@link PurchaseAttempts.OutcomeUnknown} when one may have
     */
    public Enqueue enqueue(long voucherId, long shopperId, long orderId, long createdAtMillis, String ticket) {
        try {
            return enqueueAsync(voucherId, shopperId, orderId, createdAtMillis, ticket).join();
        } catch (CompletionException e) {
            // The caller handles Redisson's own exceptions (an outage answers 503), as from a blocking call.
            if (e.getCause() instanceof RuntimeException cause) {
                throw cause;
            }
            throw e;
        }
    }

    /**
     * {@link #enqueue} without waiting: completes on Redisson's I/O thread when the shared call answers (or
     * fails as {@link #enqueue} throws). Whatever runs on it must not block.
     */
    public CompletableFuture<Enqueue> enqueueAsync(long voucherId, long shopperId, long orderId, long createdAtMillis,
            String ticket) {
        return coalescer.enqueue(voucherId, new PurchaseDecision.Order(shopperId, orderId, createdAtMillis, ticket));
    }

    /** One call for the orders, sent again after an outage ({@link PurchaseAttempts}). */
    private CompletionStage<List<Enqueue>> enqueueBatch(long voucherId, List<PurchaseDecision.Order> orders) {
        return attempts.run(() -> enqueueOnce(voucherId, orders));
    }

    private CompletableFuture<List<Enqueue>> enqueueOnce(long voucherId, List<PurchaseDecision.Order> orders) {
        PurchaseDecision.Tickets tickets = ticketsFor.apply(voucherId);
        if (waitReplicas == 0) {
            return purchases.decideAsync(voucherId, Keeping.QUEUE, tickets, orders)
                    .thenApply(decided -> enqueued(voucherId, orders, decided.decisions(), decided.saleGeneration(),
                            false));
        }
        return purchases.decideReplicatedAsync(voucherId, Keeping.QUEUE, tickets, orders, waitReplicas,
                replicas.waitTimeout()).thenApply(answer -> enqueued(voucherId, orders, answer.decisions(),
                        answer.saleGeneration(), answer.replicas() < waitReplicas));
    }

    /** Journals what was accepted before anyone hears 202: the replay after a failover right after must find it. */
    private List<Enqueue> enqueued(long voucherId, List<PurchaseDecision.Order> orders, List<Decision> decisions,
            long saleGeneration, boolean unconfirmed) {
        List<Enqueue> enqueued = new ArrayList<>(decisions.size());
        List<AcceptedOrdersJournal.Accepted> accepted = new ArrayList<>(decisions.size());
        for (int i = 0; i < decisions.size(); i++) {
            Decision decision = decisions.get(i);
            enqueued.add(new Enqueue(decision, unconfirmed && decision.outcome() == Outcome.ACCEPTED));
            if (decision.outcome() == Outcome.ACCEPTED) {
                PurchaseDecision.Order order = orders.get(i);
                accepted.add(new AcceptedOrdersJournal.Accepted(order.shopperId(), order.orderId(), order.atMillis()));
            }
        }
        journal.accepted(voucherId, saleGeneration, accepted, !unconfirmed);
        return enqueued;
    }
}
