package dev.seckill.ratelimit;

import dev.seckill.web.ProblemCode;
import org.springframework.boot.convert.DurationStyle;
import dev.seckill.web.SeckillProblem;
import org.springframework.stereotype.Component;

/**
 * The per-shopper limits, shared by every instance. Callers place them after their cheaper refusals
 * (the sale window, a sold-out flag): a refusal that needs no Redis call must not get one here.
 */
@Component
public class ShopperRateLimits {

    private final RedisRateLimiter limiter;
    private final RateLimitSettings settings;

    ShopperRateLimits(RedisRateLimiter limiter, RateLimitSettings settings) {
        this.limiter = limiter;
        this.settings = settings;
    }

    /** One purchase attempt, or 429 rate-limited. */
    public void requireOrderPermit(long shopperId) {
        require("orders:{" + shopperId + "}", settings.orders());
    }

    /** One order lookup, or 429 rate-limited. */
    public void requireOrderReadPermit(long shopperId) {
        require("order-reads:{" + shopperId + "}", settings.orderReads());
    }

    private void require(String key, RateLimitSettings.Limit limit) {
        if (!limiter.tryAcquire(key, limit)) {
            throw new SeckillProblem(ProblemCode.RATE_LIMITED, "At most " + limit.permits() + " requests per "
                    + DurationStyle.SIMPLE.print(limit.per()) + " for this shopper", limit.retryAfterSeconds());
        }
    }
}
