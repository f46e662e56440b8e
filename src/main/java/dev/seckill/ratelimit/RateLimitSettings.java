package dev.seckill.ratelimit;

import java.time.Duration;

import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Positive;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Shared by every instance (a Redisson {@code RRateLimiter} each); a refused client is answered 429
 * {@code rate-limited} with {@code Retry-After}.
 * <p>
 * Each limit has a record of its own only because their defaults differ and a default lives on a record component
 * (where the build's configuration metadata reads it); the rest of the code sees {@link Limit}. Each record documents
 * {@code per} before {@code permits}: the metadata's reader takes the first {@code @param} starting with a name.
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
 * @param roomPolls          {@code GET /seckill/{id}/room/place} per shopper and room (a waiting room's page asks
 *                           for its place after the draw and when its turn comes; a reload or a second tab fits),
 *                           counted by the room's own script in the same call as the place (dev.seckill.sale.room)
 */
@Validated
@ConfigurationProperties("seckill.rate-limit")
public record RateLimitSettings(@DefaultValue @Valid OrdersLimit orders, @DefaultValue @Valid OrderReadsLimit orderReads,
        @DefaultValue @Valid AdminLoginFailuresLimit adminLoginFailures, @DefaultValue @Valid TicketsLimit tickets,
        @DefaultValue @Valid ChallengesLimit challenges, @DefaultValue @Valid RoomPollsLimit roomPolls) {

    /** At most {@code permits()} in any window of length {@code per()}. */
    public interface Limit {

        long permits();

        Duration per();

        /** What a refused client is told to wait: the window, in whole seconds. */
        default long retryAfterSeconds() {
            return Math.max(1, (per().toMillis() + 999) / 1000);
        }
    }

    /**
     * @param per     the window of the purchase limit
     * @param permits purchase attempts ({@code POST /seckill/{id}}) per shopper in each window
     */
    public record OrdersLimit(@DefaultValue("25") @Positive long permits, @DefaultValue("1s") @NotNull Duration per)
            implements Limit {
    }

    /**
     * @param per     the window of the look-up limit
     * @param permits order look-ups ({@code GET /orders/...}) per shopper in each window
     */
    public record OrderReadsLimit(@DefaultValue("20") @Positive long permits, @DefaultValue("1s") @NotNull Duration per)
            implements Limit {
    }

    /**
     * @param per     the window of the failed-login limit
     * @param permits failed admin logins per client address and user name in each window; once spent, that
     *                address gets 429 for that user name, right password or not. Failures elsewhere never count
     *                against it: a stranger cannot lock the admin out from another address or with another name
     */
    public record AdminLoginFailuresLimit(@DefaultValue("10") @Positive long permits,
            @DefaultValue("1m") @NotNull Duration per) implements Limit {
    }

    /**
     * @param per     the window of the ticket limit
     * @param permits purchase tickets ({@code POST /seckill/{id}/ticket}) per shopper in each window: a page asks
     *                one per click, and a ticket lives {@code seckill.tickets.lifetime}
     */
    public record TicketsLimit(@DefaultValue("5") @Positive long permits, @DefaultValue("10s") @NotNull Duration per)
            implements Limit {
    }

    /**
     * @param per     the window of the challenge limit
     * @param permits challenges ({@code GET /seckill/{id}/challenge}) per shopper in each window: a page asks one
     *                when it opens and again when one expires, so a shopper cannot stock up on them
     */
    public record ChallengesLimit(@DefaultValue("10") @Positive long permits, @DefaultValue("1m") @NotNull Duration per)
            implements Limit {
    }

    /**
     * @param per     the window of the waiting room's poll limit
     * @param permits places asked ({@code GET /seckill/{id}/room/place}) per shopper in each window
     */
    public record RoomPollsLimit(@DefaultValue("6") @Positive long permits, @DefaultValue("6s") @NotNull Duration per)
            implements Limit {
    }
}
