package dev.seckill.ratelimit;

import java.time.Duration;

import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Positive;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.annotation.Validated;

/**
 * @param orders             {@code POST /seckill/{id}} per shopper; the default lets the JMeter storm's 20
 *                           simultaneous requests of one shopper through and cuts a flood to a trickle
 * @param orderReads         {@code GET /orders/...} per shopper (a page polling its order once a second fits)
 * @param adminLoginFailures failed admin logins per client address; once spent, that address gets 429 on the
 *                           admin side, right password or not, until the window has room again
 */
@Validated
@ConfigurationProperties("seckill.rate-limit")
public record RateLimitSettings(@NotNull @Valid Limit orders, @NotNull @Valid Limit orderReads,
        @NotNull @Valid Limit adminLoginFailures) {

    /** At most {@code permits} in any window of length {@code per}. */
    public record Limit(@Positive long permits, @NotNull Duration per) {

        /** What a refused client is told to wait: the window, in whole seconds. */
        public long retryAfterSeconds() {
            return Math.max(1, (per.toMillis() + 999) / 1000);
        }
    }
}
