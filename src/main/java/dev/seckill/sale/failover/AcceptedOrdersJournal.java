package dev.seckill.sale.failover;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * The orders this instance accepted (async path) in the last {@code window}, in memory: what it promised, kept
 * apart from the Redis that holds the promise. Redis replicates asynchronously, so a master that dies can take
 * its last writes with it and the promoted replica carries on without them; after such a switch this journal is
 * what the instance replays into the new master ({@link FailoverReplay}). Orders older than the window reached
 * every replica long ago (replication lags by milliseconds); the size bound keeps a burst from holding more than
 * {@code maxOrders}, dropping the oldest first. One lock: taken once per purchase call (shared by the concurrent
 * orders of a voucher), for an append and a trim of what aged out.
 */
public final class AcceptedOrdersJournal {

    /**
     * One accepted order, as purchase.lua got it. {@code saleGeneration}: the generation of the voucher's sale it was
     * accepted in, as purchase.lua answered it (a fresh sale, a reset that deletes the orders, starts the next one:
     * the order is then no longer the sale's, and a replay leaves it out). {@code confirmed}: the shopper is told
     * 202; otherwise 503 {@code order-unconfirmed} (no replica confirmed it in time), a promise of nothing.
     */
    /** One order a purchase call accepted: its shopper, its id, and the caller's clock when it was placed. */
    public record Accepted(long shopperId, long orderId, long atMillis) {
    }

    public record Entry(long voucherId, long saleGeneration, long shopperId, long orderId, long atMillis,
            boolean confirmed, long journaledAtNanos) {
    }

    /** What a replay works from: the orders in the window, and whether the size bound dropped any of them. */
    public record Snapshot(List<Entry> entries, boolean complete) {

        /** The orders by voucher, oldest first. */
        public Map<Long, List<Entry>> byVoucher() {
            Map<Long, List<Entry>> byVoucher = new LinkedHashMap<>();
            for (Entry entry : entries) {
                byVoucher.computeIfAbsent(entry.voucherId(), id -> new ArrayList<>()).add(entry);
            }
            return byVoucher;
        }

        /** This snapshot and a later one together, each order once. */
        public Snapshot and(Snapshot later) {
            Map<Long, Entry> byOrder = new LinkedHashMap<>();
            entries.forEach(entry -> byOrder.put(entry.orderId(), entry));
            later.entries.forEach(entry -> byOrder.putIfAbsent(entry.orderId(), entry));
            return new Snapshot(List.copyOf(byOrder.values()), complete && later.complete);
        }
    }

    private final ArrayDeque<Entry> entries = new ArrayDeque<>();
    private final long windowNanos;
    private final int maxOrders;
    private final LongSupplier nanoTime;
    /** When the size bound last dropped an order still inside the window; nanoTime minus the window before any. */
    private long overflowedAt;

    public AcceptedOrdersJournal(Duration window, int maxOrders, LongSupplier nanoTime) {
        this.windowNanos = window.toNanos();
        this.maxOrders = maxOrders;
        this.nanoTime = nanoTime;
        this.overflowedAt = nanoTime.getAsLong() - windowNanos - 1;
    }

    /** A journal that keeps nothing, for a Redis that cannot fail over. */
    public static AcceptedOrdersJournal keepingNothing() {
        return new AcceptedOrdersJournal(Duration.ZERO, 0, System::nanoTime);
    }

    /**
     * Journals the orders of one purchase call that were accepted, answered 202 ({@code confirmed}) or not, in the
     * generation of the sale the call answered.
     */
    public void accepted(long voucherId, long saleGeneration, List<Accepted> orders, boolean confirmed) {
        if (orders.isEmpty() || maxOrders == 0) {
            return;
        }
        long now = nanoTime.getAsLong();
        synchronized (this) {
            for (Accepted order : orders) {
                entries.addLast(new Entry(voucherId, saleGeneration, order.shopperId(), order.orderId(),
                        order.atMillis(), confirmed, now));
            }
            forgetOlderThan(now);
        }
    }

    /**
     * The orders still in the window, copied (the lock is held for the copy only: purchase answers wait on it).
     * Not complete when the size bound dropped orders that were still inside the window: a replay from it cannot
     * know what those were.
     */
    public Snapshot snapshot() {
        Entry[] copy;
        boolean complete;
        synchronized (this) {
            long now = nanoTime.getAsLong();
            forgetOlderThan(now);
            copy = entries.toArray(Entry[]::new);
            complete = now - overflowedAt > windowNanos;
        }
        return new Snapshot(List.of(copy), complete);
    }

    public synchronized int size() {
        return entries.size();
    }

    private void forgetOlderThan(long now) {
        long oldestKept = now - windowNanos;
        while (!entries.isEmpty() && entries.peekFirst().journaledAtNanos() - oldestKept < 0) {
            entries.pollFirst();
        }
        while (entries.size() > maxOrders) {
            entries.pollFirst();
            overflowedAt = now;
        }
    }
}
