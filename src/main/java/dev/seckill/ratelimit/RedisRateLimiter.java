package dev.seckill.ratelimit;

import java.util.concurrent.CompletableFuture;

import org.redisson.api.RRateLimiter;
import org.redisson.api.RateType;
import org.redisson.api.RedissonClient;
import org.redisson.client.RedisException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * One sliding-window limiter per key, shared by every instance (Redisson {@code RRateLimiter}). A key's
 * limiter is created on first use and removed by Redis once the key has been quiet for two windows.
 */
@Component
public class RedisRateLimiter {

    private static final Logger log = LoggerFactory.getLogger(RedisRateLimiter.class);

    static final String PREFIX = "seckill:rate:";

    private final RedissonClient redisson;

    RedisRateLimiter(RedissonClient redisson) {
        this.redisson = redisson;
    }

    /** Takes one permit if the window has room. */
    public boolean tryAcquire(String key, RateLimitSettings.Limit limit) {
        RRateLimiter limiter = redisson.getRateLimiter(PREFIX + key);
        // The limiter's configuration (a no-op once it exists) and the acquire are sent together, so a
        // request waits for one round trip, not two. On another pooled connection the acquire can
        // overtake a first configuration, and across a Redis restart the configuration sent beside it
        // may have failed: then configure synchronously, and try once more.
        configure(limiter, limit);
        try {
            return limiter.tryAcquire();
        } catch (RedisException e) {
            if (!notConfigured(e)) {
                throw e;
            }
            limiter.trySetRate(RateType.OVERALL, limit.permits(), limit.per(), limit.per().multipliedBy(2));
            try {
                return limiter.tryAcquire();
            } catch (RedisException again) {
                if (!notConfigured(again)) {
                    throw again;
                }
                // Redis lost the limiter between our two calls (a flush, a restart): a limit prices abuse,
                // it must not turn a shopper away with an error. Let this one request through.
                log.warn("Rate limiter {} vanished twice in a row (Redis lost its data?): request let through", key);
                return true;
            }
        }
    }

    /**
     * Whether the window is full, taking nothing. A limiter that does not exist has counted nothing (none was
     * taken yet, or it expired after {@code keep-alive}): not exhausted. It is not configured here: asking
     * first configured it and then read it in two calls, and a limiter expiring between them failed the read
     * ("RateLimiter is not initialized", a 500 to the request).
     */
    public boolean isExhausted(String key) {
        try {
            return redisson.getRateLimiter(PREFIX + key).availablePermits() <= 0;
        } catch (RedisException e) {
            if (notConfigured(e)) {
                return false;
            }
            throw e;
        }
    }

    private static CompletableFuture<Boolean> configure(RRateLimiter limiter, RateLimitSettings.Limit limit) {
        CompletableFuture<Boolean> configuring = limiter
                .trySetRateAsync(RateType.OVERALL, limit.permits(), limit.per(), limit.per().multipliedBy(2))
                .toCompletableFuture();
        // A failure here (Redis down) also fails the acquire sent beside it, which reports it.
        configuring.exceptionally(e -> false);
        return configuring;
    }

    private static boolean notConfigured(RedisException e) {
        return e.getMessage() != null && e.getMessage().contains("RateLimiter is not initialized");
    }
}
