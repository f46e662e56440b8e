package dev.seckill.sale.stream;

import dev.seckill.sale.Ticker;

import java.util.concurrent.TimeUnit;

import dev.seckill.sale.stream.FailureClassifier.Failure;
import org.redisson.client.RedisException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a failure while polling one voucher's stream does to that voucher: a missing stream or group is
 * recreated, an outage of a backend ends the whole round (every voucher would meet it), anything else
 * backs that voucher off alone, doubling from 100 ms up to 5 s, and re-reads its own messages after.
 */
final class PollFailures {

    /** Under the poller's name: all of the consumer's polling messages stay under one logger. */
    private static final Logger log = LoggerFactory.getLogger(StreamPoller.class);

    static final long MIN_BACKOFF_NANOS = TimeUnit.MILLISECONDS.toNanos(100);
    static final long MAX_BACKOFF_NANOS = TimeUnit.SECONDS.toNanos(5);

    private final String consumer;
    private final ConsumerStream stream;
    private final Ticker ticker;

    PollFailures(String consumer, ConsumerStream stream, Ticker ticker) {
        this.consumer = consumer;
        this.stream = stream;
        this.ticker = ticker;
    }

    /** @throws RuntimeException {@code e} itself if it is an outage: the caller ends the round */
    void failedOn(long voucherId, VoucherPollState state, RuntimeException e) {
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
            log.error("Voucher {}: consumer {} failed; retrying it in {} ms", voucherId, consumer,
                    TimeUnit.NANOSECONDS.toMillis(delay), e);
        }
    }

    /** The wait after this many failures in a row: 100 ms, doubling, at most 5 s. */
    static long backoff(int failures) {
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
