package dev.seckill.orderstream;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;

import dev.seckill.metrics.SaleMeters;
import dev.seckill.stock.LuaScript;
import dev.seckill.stock.VoucherKeys;
import org.redisson.api.RedissonClient;
import org.springframework.stereotype.Component;

/**
 * The decision of the asynchronous path: one enqueue script (seckill-enqueue.lua) that decides and queues
 * an order atomically, shared by the concurrent orders of a voucher ({@link EnqueueCoalescer}).
 */
@Component
public class OrderEnqueue {

    private final ReplicaSettings replicas;
    private final LuaScript enqueue;
    private final EnqueueCoalescer coalescer;

    OrderEnqueue(RedissonClient redisson, ReplicaSettings replicas, EnqueueSettings enqueueing, SaleMeters meters) {
        this.replicas = replicas;
        this.enqueue = new LuaScript(redisson, "seckill-enqueue.lua");
        this.coalescer = new EnqueueCoalescer(this::enqueueBatch, enqueueing.maxBatch(), meters::enqueueCall);
        meters.bindEnqueueCounts(coalescer::calls, coalescer::orders);
    }

    public enum Enqueued {
        ACCEPTED, SOLD_OUT, ALREADY_BOUGHT, NOT_CACHED,
        /** A stock reset holds the voucher's fence: nothing was taken, try again in a moment. */
        RESETTING,
        /**
         * Accepted by the master, but fewer replicas than {@code seckill.redis.wait-replicas} confirmed it
         * within {@code wait-timeout}: the order stands (it goes on to MySQL), only its survival of a
         * failover is unconfirmed. Never the script's answer; only with the opt-in.
         */
        UNCONFIRMED;

        /** seckill-enqueue.lua's numeric answers, named one by one: never by their position in this enum. */
        static Enqueued ofCode(long code) {
            return switch ((int) code) {
                case 0 -> ACCEPTED;
                case 1 -> SOLD_OUT;
                case 2 -> ALREADY_BOUGHT;
                case 3 -> NOT_CACHED;
                case 4 -> RESETTING;
                default -> throw new IllegalStateException("seckill-enqueue.lua answered " + code);
            };
        }
    }

    /**
     * What the enqueue script decided. For {@code ALREADY_BOUGHT}, {@code existingOrderId} is the
     * shopper's order when Redis knows it, else 0 (look in MySQL).
     */
    public record Enqueue(Enqueued outcome, long existingOrderId) {
    }

    /**
     * The one Redis call of an async order: decides and queues atomically. When the shopper already
     * bought, the same call answers which order is theirs, so naming it costs no second round trip.
     * Concurrent orders of the voucher share the call ({@link EnqueueCoalescer}); each gets its own answer.
     * With {@code seckill.redis.wait-replicas} set, the call carries a WAIT for that many replicas in the
     * same pipeline, and an order they did not all confirm in time is {@code UNCONFIRMED}.
     *
     * @throws RuntimeException what Redisson threw for the call (an outage: connection, timeout)
     */
    public Enqueue enqueue(long voucherId, long shopperId, long orderId, long createdAtMillis) {
        try {
            return coalescer.enqueue(voucherId, new EnqueueCoalescer.Order(shopperId, orderId, createdAtMillis)).join();
        } catch (CompletionException e) {
            // The caller handles Redisson's own exceptions (an outage answers 503), as from a blocking call.
            if (e.getCause() instanceof RuntimeException cause) {
                throw cause;
            }
            throw e;
        }
    }

    /** Enqueue calls sent and the orders they carried, since start (fewer calls than orders: shared calls). */
    public record EnqueueCalls(long calls, long orders) {
    }

    public EnqueueCalls enqueueCalls() {
        return new EnqueueCalls(coalescer.calls(), coalescer.orders());
    }

    private CompletionStage<List<Enqueue>> enqueueBatch(long voucherId, List<EnqueueCoalescer.Order> orders) {
        List<Object> keys = VoucherKeys.forEnqueue(voucherId);
        Object[] args = new Object[3 * orders.size()];
        for (int i = 0; i < orders.size(); i++) {
            EnqueueCoalescer.Order order = orders.get(i);
            args[3 * i] = order.shopperId();
            args[3 * i + 1] = order.orderId();
            args[3 * i + 2] = order.createdAtMillis();
        }
        if (replicas.waitReplicas() == 0) {
            return enqueue.evalListAsync(keys, args).thenApply(answers -> outcomes(answers, false));
        }
        return enqueue.evalListReplicatedAsync(replicas.waitReplicas(), replicas.waitTimeout(), keys, args)
                .thenApply(answer -> outcomes(answer.value(), answer.replicas() < replicas.waitReplicas()));
    }

    private static List<Enqueue> outcomes(List<Object> answers, boolean unconfirmed) {
        List<Enqueue> outcomes = new ArrayList<>(answers.size());
        for (Object answer : answers) {
            outcomes.add(outcome(answer, unconfirmed));
        }
        return outcomes;
    }

    private static Enqueue outcome(Object answer, boolean unconfirmed) {
        if (answer instanceof Number code) {
            Enqueued outcome = Enqueued.ofCode(code.longValue());
            return new Enqueue(unconfirmed && outcome == Enqueued.ACCEPTED ? Enqueued.UNCONFIRMED : outcome, 0);
        }
        // The only string answer is the id of the shopper's existing order.
        return new Enqueue(Enqueued.ALREADY_BOUGHT, Long.parseLong(answer.toString()));
    }
}
