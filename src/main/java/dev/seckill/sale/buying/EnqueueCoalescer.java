package dev.seckill.sale.buying;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongConsumer;

import dev.seckill.sale.buying.PurchaseDecision.Order;
import org.redisson.client.RedisTimeoutException;

/**
 * Concurrent purchases of one voucher share one Redis call. Per voucher, at most one enqueue call is in
 * flight from this instance; the orders that arrive meanwhile wait in the voucher's lane and go together,
 * up to {@code maxBatch} of them, in the next call, which is sent the moment the previous one answers.
 * An order that finds its lane idle is sent at once, so a quiet sale pays no added wait.
 *
 * <p>Why: on the order line, each request paid a network round trip and Redisson's per-command work
 * (its connection pool hand-off, encoding, a netty wake-up) of its own; Redis itself runs the script in a
 * few microseconds. One call for many orders pays that once. The script decides the orders one after the
 * other, in the order they queued, with the same answers a call of their own would have had.
 *
 * <p>An order not answered within its deadline fails: with an outage if it was still waiting in its lane (it is taken
 * out, and never sent), or as {@link PurchaseAttempts.OutcomeUnknown} if the call carrying it was sent, which may have
 * taken it.
 */
final class EnqueueCoalescer {

    /** Runs the purchase script for one voucher's orders, answering one outcome per order, in their order. */
    @FunctionalInterface
    interface BatchCall {
        CompletionStage<List<OrderEnqueue.Enqueue>> enqueue(long voucherId, List<Order> orders);
    }

    private record Waiting(Order order, CompletableFuture<OrderEnqueue.Enqueue> answer) {
    }

    private final BatchCall call;
    private final int maxBatch;
    /** How long an order waits for its answer; null: as long as its call takes. */
    private final Duration deadline;
    private final LongConsumer callNanos;
    private final ConcurrentHashMap<Long, Lane> lanes = new ConcurrentHashMap<>();
    private final LongAdder calls = new LongAdder();
    private final LongAdder orders = new LongAdder();

    EnqueueCoalescer(BatchCall call, int maxBatch) {
        this(call, maxBatch, nanos -> { });
    }

    /** @param callNanos told how long each call took until Redis answered (or it failed) */
    EnqueueCoalescer(BatchCall call, int maxBatch, LongConsumer callNanos) {
        this(call, maxBatch, null, callNanos);
    }

    /** @param deadline how long an order waits for its answer, null for as long as its call takes */
    EnqueueCoalescer(BatchCall call, int maxBatch, Duration deadline, LongConsumer callNanos) {
        if (maxBatch < 1) {
            throw new IllegalArgumentException("maxBatch must be at least 1, was " + maxBatch);
        }
        this.call = call;
        this.maxBatch = maxBatch;
        this.deadline = deadline;
        this.callNanos = callNanos;
    }

    /** The order's outcome, completed when the call that carries it answers (on Redisson's thread). */
    CompletableFuture<OrderEnqueue.Enqueue> enqueue(long voucherId, Order order) {
        Waiting waiting = new Waiting(order, new CompletableFuture<>());
        Lane lane = lanes.computeIfAbsent(voucherId, Lane::new);
        List<Waiting> batch = lane.offer(waiting);
        if (batch != null) {
            send(lane, batch);
        }
        if (deadline == null) {
            return waiting.answer();
        }
        return waiting.answer().orTimeout(deadline.toMillis(), TimeUnit.MILLISECONDS).handle((outcome, error) -> {
            if (error == null) {
                return outcome;
            }
            Throwable failure = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
            if (!(failure instanceof TimeoutException)) {
                throw error instanceof CompletionException completion ? completion : new CompletionException(failure);
            }
            if (lane.withdraw(waiting)) {
                throw new RedisTimeoutException("The order waited " + deadline.toMillis() + " ms behind an earlier "
                        + "call of its voucher and was never sent");
            }
            throw new PurchaseAttempts.OutcomeUnknown(new RedisTimeoutException("No answer to the purchase call within "
                    + deadline.toMillis() + " ms"));
        });
    }

    /** Enqueue calls sent to Redis so far. */
    long calls() {
        return calls.sum();
    }

    /** Orders those calls carried. */
    long orders() {
        return orders.sum();
    }

    private void send(Lane lane, List<Waiting> batch) {
        calls.increment();
        orders.add(batch.size());
        List<Order> carried = new ArrayList<>(batch.size());
        batch.forEach(waiting -> carried.add(waiting.order()));
        CompletionStage<List<OrderEnqueue.Enqueue>> answers;
        long start = System.nanoTime();
        try {
            answers = call.enqueue(lane.voucherId, carried);
        } catch (RuntimeException e) {
            answers = CompletableFuture.failedFuture(e);
        }
        answers.whenComplete((outcomes, error) -> {
            callNanos.accept(System.nanoTime() - start);
            // The next call first: the orders queued behind this one should not wait for the wake-ups below.
            List<Waiting> next = lane.next();
            if (next != null) {
                send(lane, next);
            }
            answer(batch, outcomes, error);
        });
    }

    private static void answer(List<Waiting> batch, List<OrderEnqueue.Enqueue> outcomes, Throwable error) {
        if (error == null && (outcomes == null || outcomes.size() != batch.size())) {
            error = new IllegalStateException("The purchase script answered " + (outcomes == null ? "nothing"
                    : outcomes.size() + " outcomes") + " for " + batch.size() + " orders");
        }
        for (int i = 0; i < batch.size(); i++) {
            if (error != null) {
                batch.get(i).answer().completeExceptionally(error);
            } else {
                batch.get(i).answer().complete(outcomes.get(i));
            }
        }
    }

    /** One voucher's queue; its monitor guards the queue and whether a call is in flight. */
    private final class Lane {

        final long voucherId;
        private final ArrayDeque<Waiting> queued = new ArrayDeque<>();
        private boolean inFlight;

        Lane(long voucherId) {
            this.voucherId = voucherId;
        }

        /** Queues the order; the batch to send now if no call was in flight (then this caller sends it). */
        synchronized List<Waiting> offer(Waiting waiting) {
            queued.add(waiting);
            if (inFlight) {
                return null;
            }
            inFlight = true;
            return drain();
        }

        /** Takes the order out if it still waits to be sent; false if a call carries it already. */
        synchronized boolean withdraw(Waiting waiting) {
            return queued.remove(waiting);
        }

        /** After a call answered: the next batch to send, or null (and the lane idle) if none waits. */
        synchronized List<Waiting> next() {
            if (queued.isEmpty()) {
                inFlight = false;
                return null;
            }
            return drain();
        }

        private List<Waiting> drain() {
            List<Waiting> batch = new ArrayList<>(Math.min(queued.size(), maxBatch));
            while (!queued.isEmpty() && batch.size() < maxBatch) {
                batch.add(queued.poll());
            }
            return batch;
        }
    }
}
