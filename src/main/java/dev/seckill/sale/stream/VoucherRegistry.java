package dev.seckill.sale.stream;

import dev.seckill.sale.Ticker;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.LongPredicate;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which vouchers' streams one consumer thread reads, each with its {@link VoucherPollState}. Follows the
 * registry of order streams at most once a second (new vouchers get their consumer group first), and
 * drops a voucher whose sale is over and whose stream is empty: otherwise every sale ever held would be
 * polled. Not thread-safe: one per consumer thread.
 */
final class VoucherRegistry {

    /** Under the poller's name: all of the consumer's polling messages stay under one logger. */
    private static final Logger log = LoggerFactory.getLogger(StreamPoller.class);

    static final long REFRESH_NANOS = TimeUnit.SECONDS.toNanos(1);
    /** Empty reads in a row before a voucher whose sale is over may leave the registry. */
    static final int EMPTY_READS_BEFORE_PRUNE = 5;

    private final ConsumerStream stream;
    private final LongPredicate saleOver;
    private final Map<Long, VoucherPollState> vouchers = new HashMap<>();
    private long refreshDue;

    /** @param saleOver whether a voucher's sale ended a while ago (or the voucher is unknown) */
    VoucherRegistry(ConsumerStream stream, LongPredicate saleOver, long now) {
        this.stream = stream;
        this.saleOver = saleOver;
        this.refreshDue = now;
    }

    /** Follows the stream registry if a second has passed; a failure leaves it due, for the next round. */
    void refreshIfDue(long now) {
        if (Ticker.reached(now, refreshDue)) {
            refresh(now);
            refreshDue = now + REFRESH_NANOS;
        }
    }

    /** The vouchers read now and their state, to go through in one round. */
    Set<Map.Entry<Long, VoucherPollState>> entries() {
        return vouchers.entrySet();
    }

    /** After an outage: every voucher's own unacknowledged messages are read again first. */
    void rereadOwnPending() {
        vouchers.values().forEach(state -> state.ownPending = true);
    }

    Set<Long> voucherIds() {
        return Set.copyOf(vouchers.keySet());
    }

    private void refresh(long now) {
        Set<Long> current = stream.registeredVouchers();
        vouchers.keySet().retainAll(current);
        for (long voucherId : current) {
            if (!vouchers.containsKey(voucherId)) {
                stream.ensureGroup(voucherId);
                vouchers.put(voucherId, new VoucherPollState(now));
            }
        }
        vouchers.entrySet().removeIf(entry -> pruneIfOver(entry.getKey(), entry.getValue()));
    }

    /**
     * A voucher whose sale ended a while ago (or that this database does not know) and whose stream
     * holds nothing leaves the registry.
     */
    private boolean pruneIfOver(long voucherId, VoucherPollState state) {
        if (state.emptyReads < EMPTY_READS_BEFORE_PRUNE || !saleOver.test(voucherId)
                || stream.pendingOrders(voucherId) > 0) {
            return false;
        }
        stream.unregister(voucherId);
        log.info("Voucher {}: sale over and its stream empty, no longer polled", voucherId);
        return true;
    }
}
