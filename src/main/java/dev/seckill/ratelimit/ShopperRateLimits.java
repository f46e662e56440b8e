package dev.seckill.ratelimit;

import com.github.benmanes.caffeine.cache.Ticker;
import dev.seckill.refusal.Reason;
import dev.seckill.refusal.Refusal;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.convert.DurationStyle;
import org.springframework.stereotype.Component;

/**
 * The per-shopper limits, shared by every instance. Callers place them after their cheaper refusals
 * (the sale window, a sold-out flag): a refusal that needs no Redis call must not get one here. Each limit
 * first asks what this instance already knows ({@link LocalLimitGate}): a shopper's first request in a
 * window and a shopper refused a moment ago are decided without Redis.
 */
@Component
public class ShopperRateLimits {

    private final RedisRateLimiter limiter;
    private final RateLimitSettings settings;
    private final LocalLimitGate orders;
    private final LocalLimitGate orderReads;
    private final LocalLimitGate tickets;
    private final LocalLimitGate challenges;

    @Autowired
    ShopperRateLimits(RedisRateLimiter limiter, RateLimitSettings settings) {
        this(limiter, settings, Ticker.systemTicker());
    }

    ShopperRateLimits(RedisRateLimiter limiter, RateLimitSettings settings, Ticker ticker) {
        this.limiter = limiter;
        this.settings = settings;
        this.orders = new LocalLimitGate(settings.orders().per(), ticker);
        this.orderReads = new LocalLimitGate(settings.orderReads().per(), ticker);
        this.tickets = new LocalLimitGate(settings.tickets().per(), ticker);
        this.challenges = new LocalLimitGate(settings.challenges().per(), ticker);
    }

    /** One purchase attempt, or 429 rate-limited. */
    public void requireOrderPermit(long shopperId) {
        require(orders, shopperId, "orders:{" + shopperId + "}", settings.orders());
    }

    /** One order lookup, or 429 rate-limited. */
    public void requireOrderReadPermit(long shopperId) {
        require(orderReads, shopperId, "order-reads:{" + shopperId + "}", settings.orderReads());
    }

    /** One purchase ticket, or 429 rate-limited. */
    public void requireTicketPermit(long shopperId) {
        require(tickets, shopperId, "tickets:{" + shopperId + "}", settings.tickets());
    }

    /** One challenge, or 429 rate-limited. */
    public void requireChallengePermit(long shopperId) {
        require(challenges, shopperId, "challenges:{" + shopperId + "}", settings.challenges());
    }

    private void require(LocalLimitGate gate, long shopperId, String key, RateLimitSettings.Limit limit) {
        boolean allowed = switch (gate.check(shopperId)) {
            case ALLOW -> true;
            case DENY -> false;
            case ASK -> {
                boolean acquired = limiter.tryAcquire(key, limit);
                if (!acquired) {
                    gate.refused(shopperId);
                }
                yield acquired;
            }
        };
        if (!allowed) {
            throw new Refusal(Reason.RATE_LIMITED, "At most " + limit.permits() + " requests per "
                    + DurationStyle.SIMPLE.print(limit.per()) + " for this shopper", limit.retryAfterSeconds(), 0);
        }
    }
}
