package dev.seckill.ratelimit;

import java.time.Duration;

import dev.seckill.support.RedisServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.redisson.api.RedissonClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The shared limiter on a Redis of its own. Asking whether a window is full must never fail because the
 * limiter is not there: nothing was counted yet, or it expired (which a test cannot time, but a deleted key
 * stands for).
 */
class RedisRateLimiterIT {

    private static final RateLimitSettings.Limit TWO_A_MINUTE = new RateLimitSettings.OrdersLimit(2, Duration.ofMinutes(1));

    private static RedisServer redis;
    private static RedissonClient redisson;
    private static RedisRateLimiter limiter;

    @BeforeAll
    static void ownRedis() throws Exception {
        redis = RedisServer.start(null);
        redisson = redis.client();
        limiter = new RedisRateLimiter(redisson);
    }

    @AfterAll
    static void stop() throws Exception {
        redisson.shutdown();
        redis.close();
    }

    @Test
    void aWindowIsFullOnlyOnceItsPermitsAreTaken() {
        assertThat(limiter.isExhausted("never-counted")).isFalse();
        assertThat(redisson.getKeys().countExists(RedisRateLimiter.PREFIX + "never-counted")).as("asking creates nothing").isZero();

        assertThat(limiter.tryAcquire("counted", TWO_A_MINUTE)).isTrue();
        assertThat(limiter.isExhausted("counted")).isFalse();
        assertThat(limiter.tryAcquire("counted", TWO_A_MINUTE)).isTrue();
        assertThat(limiter.isExhausted("counted")).isTrue();
        assertThat(limiter.tryAcquire("counted", TWO_A_MINUTE)).isFalse();
    }

    @Test
    void aLimiterThatExpiredHasCountedNothing() {
        String key = "admin-login-failures:{10.0.0.1}:0123456789abcdef0123456789abcdef";
        limiter.tryAcquire(key, TWO_A_MINUTE);
        limiter.tryAcquire(key, TWO_A_MINUTE);
        assertThat(limiter.isExhausted(key)).isTrue();

        assertThat(redisson.getKeys().deleteByPattern(RedisRateLimiter.PREFIX + key + "*")).as("the limiter's keys").isPositive();

        assertThat(limiter.isExhausted(key)).isFalse();
        assertThat(limiter.tryAcquire(key, TWO_A_MINUTE)).isTrue();
    }
}
