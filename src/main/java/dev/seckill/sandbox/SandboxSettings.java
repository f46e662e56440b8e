package dev.seckill.sandbox;

import java.time.Duration;

import jakarta.validation.constraints.AssertTrue;
import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Positive;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * The sandbox payment provider: a provider's checkout page and webhook deliveries inside the instance, misbehaving
 * on purpose as real ones do (late, duplicated, out of order) so that our receiving side is tested against them.
 *
 * @param enabled         the sandbox's beans and {@code /sandbox/**} exist only when true; turn it off where a real
 *                        provider is used
 * @param publicUrl       what goes before {@code /sandbox/checkout/<ref>} in the checkout URL given to shoppers, e.g.
 *                        {@code https://shop.example}; empty gives the relative URL, which works behind any host name
 * @param webhookUrl      where notifications are posted; empty means this instance's own
 *                        {@code http://127.0.0.1:<port>/payments/webhook}
 * @param pollInterval    how often each instance looks for notifications that are due
 * @param retryBackoff    the wait after a delivery's first failed attempt (a non-2xx answer, a refused connection, no
 *                        answer within 2 s); it doubles with each further failure
 * @param retryBackoffMax the longest wait between two attempts
 * @param maxAttempts     attempts at a notification before it is given up (it stays undelivered, with its last error)
 * @param duplicateRate   the chance, 0 to 1, that a delivered notification is delivered once more later, with the
 *                        same event id
 * @param delayMin        the shortest time between an action and its notification being due
 * @param delayMax        the longest; each notification is due a random time between the two after it was queued
 * @param outOfOrder      when one action queues several notifications (a payment's {@code payment.processing} and
 *                        {@code payment.succeeded}), the later ones are due first
 */
@SandboxEnabled
@Validated
@ConfigurationProperties("seckill.sandbox")
record SandboxSettings(@DefaultValue("true") boolean enabled, @NotNull @DefaultValue("") String publicUrl,
        @NotNull @DefaultValue("") String webhookUrl, @NotNull @DefaultValue("200ms") Duration pollInterval,
        @NotNull @DefaultValue("1s") Duration retryBackoff, @NotNull @DefaultValue("1m") Duration retryBackoffMax,
        @Positive @DefaultValue("12") int maxAttempts,
        @DecimalMin("0.0") @DecimalMax("1.0") @DefaultValue("0.2") double duplicateRate,
        @NotNull @DefaultValue("0s") Duration delayMin, @NotNull @DefaultValue("2s") Duration delayMax,
        @DefaultValue("true") boolean outOfOrder) {

    @AssertTrue(message = "delay-min must be at least 0 and at most delay-max")
    boolean isDelayRangeValid() {
        return delayMin == null || delayMax == null || !delayMin.isNegative() && delayMin.compareTo(delayMax) <= 0;
    }

    @AssertTrue(message = "poll-interval and retry-backoff must be positive, retry-backoff-max at least retry-backoff")
    boolean isTimingValid() {
        return pollInterval == null || retryBackoff == null || retryBackoffMax == null
                || positive(pollInterval) && positive(retryBackoff) && retryBackoffMax.compareTo(retryBackoff) >= 0;
    }

    private static boolean positive(Duration duration) {
        return !duration.isZero() && !duration.isNegative();
    }

    /** Where the payment's page is, relative when no public URL is set. */
    String checkoutPath(String ref) {
        String base = publicUrl.endsWith("/") ? publicUrl.substring(0, publicUrl.length() - 1) : publicUrl;
        return base + "/sandbox/checkout/" + ref;
    }
}
