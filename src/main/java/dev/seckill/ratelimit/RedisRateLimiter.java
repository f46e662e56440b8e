package dev.seckill.ratelimit;

import java.util.concurrent.CompletableFuture;

import org.redisson.api.RRateLimiter;
import org.redisson.api.RateType;
import org.redisson.api.RedissonClient;
import org.redisson.client.RedisException;
import org.springframework.stereotype.Component;

/**
 * One sliding-window limiter per key, shared by every instance (Redisson {@code RRateLimiter}). A key's
 * limiter is created on first use and removed by Redis once the key has been quiet for two windows.
 */
@Component
public class RedisRateLimiter {

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
        // overtake a first configuration: then configure, and try once more.
        CompletableFuture<Boolean> configuring = configure(limiter, limit);
        try {
            return limiter.tryAcquire();
        } catch (RedisException e) {
            if (!notConfigured(e)) {
                throw e;
            }
            configuring.join();
            return limiter.tryAcquire();
        }
    }

    /** Whether the window is full, taking nothing. */
    public boolean isExhausted(String key, RateLimitSettings.Limit limit) {
        RRateLimiter limiter = redisson.getRateLimiter(PREFIX + key);
        configure(limiter, limit).join();
        return limiter.availablePermits() <= 0;
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
