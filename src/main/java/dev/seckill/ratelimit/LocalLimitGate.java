package dev.seckill.ratelimit;

import java.time.Duration;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Ticker;

/**
 * What this instance already knows of one per-shopper limit, so that most requests are decided without a
 * Redis call. The shared limiter ({@link RedisRateLimiter}, three Redis scripts' work for a new shopper)
 * costs more Redis time than the order it guards (docs/benchmarks.md), yet:
 * <ul>
 *   <li>a shopper's first request on this instance in a window cannot be over any limit, so it passes
 *       without asking (and without being counted);</li>
 *   <li>a shopper the shared limiter has just refused is refused again here, without asking, for a tenth
 *       of the window: a flood costs Redis a few calls a second, not one per request.</li>
 * </ul>
 * Everything else asks Redis. The shared limit stays the bound, loosened by one request per instance per
 * window (the uncounted first one), and by one more each time the memory bound evicts a shopper.
 */
final class LocalLimitGate {

    /** Shoppers remembered per limit; past this, the least recent are forgotten (and get one more free request). */
    static final long MAX_SHOPPERS = 250_000;

    enum Verdict { ALLOW, DENY, ASK }

    private final Cache<Long, Boolean> seenThisWindow;
    private final Cache<Long, Boolean> refusedLately;

    LocalLimitGate(Duration window, Ticker ticker) {
        // Evictions run on the calling thread: handing them to the common pool costs more than doing them
        // (a wake-up and a park per burst of new shoppers; docs/benchmarks.md).
        this.seenThisWindow = Caffeine.newBuilder().executor(Runnable::run).ticker(ticker).expireAfterWrite(window)
                .maximumSize(MAX_SHOPPERS).build();
        this.refusedLately = Caffeine.newBuilder().executor(Runnable::run).ticker(ticker).expireAfterWrite(window.dividedBy(10))
                .maximumSize(MAX_SHOPPERS).build();
    }

    Verdict check(long shopperId) {
        if (seenThisWindow.asMap().putIfAbsent(shopperId, Boolean.TRUE) == null) {
            return Verdict.ALLOW;
        }
        return refusedLately.getIfPresent(shopperId) != null ? Verdict.DENY : Verdict.ASK;
    }

    /** The shared limiter said no to this shopper. */
    void refused(long shopperId) {
        refusedLately.put(shopperId, Boolean.TRUE);
    }
}
