package dev.seckill.sale.stream;

import dev.seckill.sale.Ticker;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.LongPredicate;

import dev.seckill.salestate.QueuedOrder;

/**
 * One consumer thread's reading of the voucher streams: which vouchers to read, its own unacknowledged
 * messages first (at start-up, after a failure, when orders were left for later), taking over idle
 * messages of dead consumers (XAUTOCLAIM) every {@code claimIdle / 2}, reading quiet streams less
 * often, backing off after failures. Every timer runs on the monotonic {@link Ticker}. A failure on
 * one voucher backs off that voucher only; an outage of a backend ends the round (the caller waits).
 * Which vouchers it reads is up to {@link VoucherRegistry}, what a failure does to a voucher up to
 * {@link PollFailures}.
 * Not thread-safe: one per consumer thread.
 */
final class StreamPoller {

    /** A stream that keeps coming back empty is read less and less often, down to once a second. */
    static final long MAX_IDLE_POLL_NANOS = TimeUnit.SECONDS.toNanos(1);
    /** Orders left for later (shopper locked elsewhere, a failed attempt) are retried this much later. */
    static final long RETRY_LATER_NANOS = TimeUnit.MILLISECONDS.toNanos(200);

    /** Writes a batch; an exception is a failure of the voucher's stream or of a backend. */
    interface BatchHandler {
        Outcome handle(long voucherId, List<QueuedOrder> batch);
    }

    /** @param settled orders now in MySQL or given up   @param leftForLater some stay delivered to us */
    record Outcome(int settled, boolean leftForLater) {
    }

    private final String name;
    private final ConsumerStream stream;
    private final StreamSettings settings;
    private final Ticker ticker;
    private final BatchHandler handler;
    private final VoucherRegistry registry;
    private final PollFailures failures;
    private long claimDue;
    private int outages;

    /** @param saleOver whether a voucher's sale ended a while ago (or the voucher is unknown) */
    StreamPoller(String name, ConsumerStream stream, StreamSettings settings, Ticker ticker, LongPredicate saleOver,
            BatchHandler handler) {
        this.name = name;
        this.stream = stream;
        this.settings = settings;
        this.ticker = ticker;
        this.handler = handler;
        long now = ticker.nanos();
        // Built here, not injected: both work for this one consumer thread, under its name.
        this.registry = new VoucherRegistry(stream, saleOver, now);
        this.failures = new PollFailures(name, stream, ticker);
        this.claimDue = now; // the first round takes over what a dead instance left
    }

    /**
     * Reads and settles one batch per due voucher. Returns whether anything was settled (else the caller
     * may sleep {@code idlePoll}).
     *
     * @throws RuntimeException an outage of MySQL or Redis: the caller backs off for {@link #outage()}
     */
    boolean pollRound() {
        long now = ticker.nanos();
        registry.refreshIfDue(now);
        boolean claim = Ticker.reached(now, claimDue);
        if (claim) {
            claimDue = now + settings.claimIdle().toNanos() / 2;
        }
        boolean worked = false;
        for (Map.Entry<Long, VoucherPollState> entry : registry.entries()) {
            long voucherId = entry.getKey();
            VoucherPollState state = entry.getValue();
            if (!Ticker.reached(now, state.failedUntil)) {
                continue;
            }
            boolean readOwn = state.ownPending && Ticker.reached(now, state.ownPendingDue);
            if (!readOwn && !claim && !Ticker.reached(now, state.idleUntil)) {
                continue;
            }
            try {
                worked |= poll(voucherId, state, readOwn, claim);
                state.failures = 0;
            } catch (RuntimeException e) {
                failures.failedOn(voucherId, state, e);
            }
        }
        outages = 0;
        return worked;
    }

    /** After an outage ended a round: how long to wait (doubling up to 5 s); own messages are re-read after it. */
    long outage() {
        outages++;
        registry.rereadOwnPending();
        return PollFailures.backoff(outages);
    }

    private boolean poll(long voucherId, VoucherPollState state, boolean readOwn, boolean claim) {
        int size = settings.batchSize();
        Map<String, QueuedOrder> batch = new LinkedHashMap<>();
        if (readOwn) {
            List<QueuedOrder> own = stream.readOwnPending(voucherId, name, size);
            own.forEach(order -> batch.put(order.messageId(), order));
            state.ownPending = own.size() >= size; // more behind them: read on next round
        }
        if (batch.isEmpty()) {
            stream.readNew(voucherId, name, size).forEach(order -> batch.put(order.messageId(), order));
        }
        if (claim) {
            // XAUTOCLAIM may hand back our own idle messages too: one entry per message.
            stream.claimIdle(voucherId, name, size).forEach(order -> batch.putIfAbsent(order.messageId(), order));
        }
        long now = ticker.nanos();
        if (batch.isEmpty()) {
            state.emptyReads++;
            state.idleUntil = now + Math.min(MAX_IDLE_POLL_NANOS,
                    settings.idlePoll().toNanos() << Math.min(state.emptyReads, 10));
            return false;
        }
        state.emptyReads = 0;
        state.idleUntil = now;
        Outcome outcome = handler.handle(voucherId, new ArrayList<>(batch.values()));
        if (outcome.leftForLater()) {
            state.ownPending = true;
            state.ownPendingDue = ticker.nanos() + RETRY_LATER_NANOS;
        }
        return outcome.settled() > 0;
    }

    /** The set of vouchers this poller reads, for tests. */
    Set<Long> vouchers() {
        return registry.voucherIds();
    }
}
