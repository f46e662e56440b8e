package dev.seckill.ratelimit;

import java.time.Duration;

import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Positive;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.ConstructorBinding;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Shared by every instance (a Redisson {@code RRateLimiter} each); a refused client is answered 429
 * {@code rate-limited} with {@code Retry-After}.
 * <p>
 * Each limit is bound through a record of its own ({@link OrdersLimit}, ...) only because the three have
 * different defaults and a default lives on the record component; the rest of the code sees {@link Limit}.
 *
 * @param orders             {@code POST /seckill/{id}} per shopper; the default lets the JMeter storm's 20
 *                           simultaneous requests of one shopper through and cuts a flood to a trickle
 * @param orderReads         {@code GET /orders/...} per shopper (a page polling its order once a second fits)
 * @param adminLoginFailures failed admin logins per client address and user name; once spent, that address gets
 *                           429 on the admin side for that user name, right password or not, until the window has
 *                           room again. Failures from other addresses, or under other user names, never count
 *                           against it, so a stranger cannot lock the admin out
 * @param tickets            {@code POST /seckill/{id}/ticket} per shopper
 * @param challenges         {@code GET /seckill/{id}/challenge} per shopper
 */
@Validated
@ConfigurationProperties("seckill.rate-limit")
public record RateLimitSettings(@NotNull @Valid Limit orders, @NotNull @Valid Limit orderReads,
        @NotNull @Valid Limit adminLoginFailures, @NotNull @Valid Limit tickets, @NotNull @Valid Limit challenges) {

    /** The constructor Spring binds: each limit with its own defaults, any field of it set on its own. */
    @ConstructorBinding
    RateLimitSettings(@DefaultValue @Valid OrdersLimit orders, @DefaultValue @Valid OrderReadsLimit orderReads,
            @DefaultValue @Valid AdminLoginFailuresLimit adminLoginFailures, @DefaultValue @Valid TicketsLimit tickets,
            @DefaultValue @Valid ChallengesLimit challenges) {
        this(orders.limit(), orderReads.limit(), adminLoginFailures.limit(), tickets.limit(), challenges.limit());
    }

    /** At most {@code permits} in any window of length {@code per}. */
    public record Limit(@Positive long permits, @NotNull Duration per) {

        /** What a refused client is told to wait: the window, in whole seconds. */
        public long retryAfterSeconds() {
            return Math.max(1, (per.toMillis() + 999) / 1000);
        }
    }

    /**
     * @param permits purchase attempts ({@code POST /seckill/{id}}) per shopper in each window
     * @param per     the window of the purchase limit
     */
    record OrdersLimit(@DefaultValue("25") @Positive long permits, @DefaultValue("1s") @NotNull Duration per) {

        Limit limit() {
            return new Limit(permits, per);
        }
    }

    /**
     * @param permits order look-ups ({@code GET /orders/...}) per shopper in each window
     * @param per     the window of the look-up limit
     */
    record OrderReadsLimit(@DefaultValue("20") @Positive long permits, @DefaultValue("1s") @NotNull Duration per) {

        Limit limit() {
            return new Limit(permits, per);
        }
    }

    /**
     * @param permits failed admin logins per client address and user name in each window; once spent, that
     *                address gets 429 for that user name, right password or not. Failures elsewhere never count
     *                against it: a stranger cannot lock the admin out from another address or with another name
     * @param per     the window of the failed-login limit
     */
    record AdminLoginFailuresLimit(@DefaultValue("10") @Positive long permits,
            @DefaultValue("1m") @NotNull Duration per) {

        Limit limit() {
            return new Limit(permits, per);
        }
    }

    /**
     * @param permits purchase tickets ({@code POST /seckill/{id}/ticket}) per shopper in each window: a page asks
     *                one per click, and a ticket lives {@code seckill.tickets.lifetime}
     * @param per     the window of the ticket limit
     */
    record TicketsLimit(@DefaultValue("5") @Positive long permits, @DefaultValue("10s") @NotNull Duration per) {

        Limit limit() {
            return new Limit(permits, per);
        }
    }

    /**
     * @param permits challenges ({@code GET /seckill/{id}/challenge}) per shopper in each window: a page asks one
     *                when it opens and again when one expires, so a shopper cannot stock up on them
     * @param per     the window of the challenge limit
     */
    record ChallengesLimit(@DefaultValue("10") @Positive long permits, @DefaultValue("1m") @NotNull Duration per) {

        Limit limit() {
            return new Limit(permits, per);
        }
    }
}
