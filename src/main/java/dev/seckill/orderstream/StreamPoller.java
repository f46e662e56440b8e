package dev.seckill.orderstream;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.LongPredicate;

import dev.seckill.orderstream.FailureClassifier.Failure;
import org.redisson.client.RedisException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One consumer thread's reading of the voucher streams: which vouchers to read, its own unacknowledged
 * messages first (at start-up, after a failure, when orders were left for later), taking over idle
 * messages of dead consumers (XAUTOCLAIM) every {@code claimIdle / 2}, reading quiet streams less
 * often, backing off after failures. Every timer runs on the monotonic {@link Ticker}. A failure on
 * one voucher backs off that voucher only; an outage of a backend ends the round (the caller waits).
 * Not thread-safe: one per consumer thread.
 */
final class StreamPoller {

    private static final Logger log = LoggerFactory.getLogger(StreamPoller.class);

    static final long REGISTRY_REFRESH_NANOS = TimeUnit.SECONDS.toNanos(1);
    /** A stream that keeps coming back empty is read less and less often, down to once a second. */
    static final long MAX_IDLE_POLL_NANOS = TimeUnit.SECONDS.toNanos(1);
    /** Orders left for later (shopper locked elsewhere, a failed attempt) are retried this much later. */
    static final long RETRY_LATER_NANOS = TimeUnit.MILLISECONDS.toNanos(200);
    static final long MIN_BACKOFF_NANOS = TimeUnit.MILLISECONDS.toNanos(100);
    static final long MAX_BACKOFF_NANOS = TimeUnit.SECONDS.toNanos(5);
    /** Empty reads in a row before a voucher whose sale is over may leave the registry. */
    static final int EMPTY_READS_BEFORE_PRUNE = 5;

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
    private final LongPredicate saleOver;
    private final BatchHandler handler;
    private final Map<Long, VoucherState> vouchers = new HashMap<>();
    private long registryDue;
    private long claimDue;
    private int outages;

    /** @param saleOver whether a voucher's sale ended a while ago (or the voucher is unknown) */
    StreamPoller(String name, ConsumerStream stream, StreamSettings settings, Ticker ticker, LongPredicate saleOver,
            BatchHandler handler) {
        this.name = name;
        this.stream = stream;
        this.settings = settings;
        this.ticker = ticker;
        this.saleOver = saleOver;
        this.handler = handler;
        long now = ticker.nanos();
        this.registryDue = now;
        this.claimDue = now; // the first round takes over what a dead instance left
    }

    /** What one voucher's stream needs next from this consumer. */
    private static final class VoucherState {
        int emptyReads;
        /** Not read for new messages before then (quiet stream); a due claim or own-pending read overrides it. */
        long idleUntil;
        /** Re-read this consumer's own unacknowledged messages: at start-up, after a failure, orders left for later. */
        boolean ownPending = true;
        long ownPendingDue;
        int failures;
        /** Not touched at all before then, after a failure. */
        long failedUntil;

        VoucherState(long now) {
            idleUntil = now;
            ownPendingDue = now;
            failedUntil = now;
        }
    }

    /**
     * Reads and settles one batch per due voucher. Returns whether anything was settled (else the caller
     * may sleep {@code idlePoll}).
     *
     * @throws RuntimeException an outage of MySQL or Redis: the caller backs off for {@link #outage()}
     */
    boolean pollRound() {
        long now = ticker.nanos();
        if (Ticker.reached(now, registryDue)) {
            refreshRegistry(now);
            registryDue = now + REGISTRY_REFRESH_NANOS;
        }
        boolean claim = Ticker.reached(now, claimDue);
        if (claim) {
            claimDue = now + settings.claimIdle().toNanos() / 2;
        }
        boolean worked = false;
        for (Map.Entry<Long, VoucherState> entry : vouchers.entrySet()) {
            long voucherId = entry.getKey();
            VoucherState state = entry.getValue();
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
                failedOn(voucherId, state, e);
            }
        }
        outages = 0;
        return worked;
    }

    /** After an outage ended a round: how long to wait (doubling up to 5 s); own messages are re-read after it. */
    long outage() {
        outages++;
        vouchers.values().forEach(state -> state.ownPending = true);
        return backoff(outages);
    }

    private boolean poll(long voucherId, VoucherState state, boolean readOwn, boolean claim) {
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

    private void failedOn(long voucherId, VoucherState state, RuntimeException e) {
        if (isNoGroup(e)) {
            // The stream or its group was deleted: recreate it and carry on with the others. What was
            // delivered before is gone with the group; the reconciler accounts for orders left pending.
            log.warn("Voucher {}: order stream or group missing ({}); recreating it", voucherId, e.getMessage());
            stream.ensureGroup(voucherId);
            state.ownPending = true;
            return;
        }
        Failure kind = FailureClassifier.classify(e);
        if (kind == Failure.OUTAGE) {
            throw e; // every voucher would meet it: end the round and wait
        }
        state.failures++;
        long delay = backoff(state.failures);
        state.failedUntil = ticker.nanos() + delay;
        state.ownPending = true;
        state.ownPendingDue = state.failedUntil;
        if (kind == Failure.CONTENTION) {
            log.warn("Voucher {}: {} ({}); retrying it in {} ms", voucherId, e.getClass().getSimpleName(),
                    e.getMessage(), TimeUnit.NANOSECONDS.toMillis(delay));
        } else {
            log.error("Voucher {}: consumer {} failed; retrying it in {} ms", voucherId, name,
                    TimeUnit.NANOSECONDS.toMillis(delay), e);
        }
    }

    private void refreshRegistry(long now) {
        Set<Long> current = stream.registeredVouchers();
        vouchers.keySet().retainAll(current);
        for (long voucherId : current) {
            if (!vouchers.containsKey(voucherId)) {
                stream.ensureGroup(voucherId);
                vouchers.put(voucherId, new VoucherState(now));
            }
        }
        vouchers.entrySet().removeIf(entry -> pruneIfOver(entry.getKey(), entry.getValue()));
    }

    /**
     * A voucher whose sale ended a while ago (or that this database does not know) and whose stream
     * holds nothing leaves the registry: otherwise every sale ever held would be polled.
     */
    private boolean pruneIfOver(long voucherId, VoucherState state) {
        if (state.emptyReads < EMPTY_READS_BEFORE_PRUNE || !saleOver.test(voucherId)
                || stream.pendingOrders(voucherId) > 0) {
            return false;
        }
        stream.unregister(voucherId);
        log.info("Voucher {}: sale over and its stream empty, no longer polled", voucherId);
        return true;
    }

    /** The set of vouchers this poller reads, for tests. */
    Set<Long> vouchers() {
        return Set.copyOf(vouchers.keySet());
    }

    private static long backoff(int failures) {
        return Math.min(MAX_BACKOFF_NANOS, MIN_BACKOFF_NANOS << Math.min(failures - 1, 10));
    }

    private static boolean isNoGroup(RuntimeException e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof RedisException && t.getMessage() != null && t.getMessage().contains("NOGROUP")) {
                return true;
            }
        }
        return false;
    }
}
