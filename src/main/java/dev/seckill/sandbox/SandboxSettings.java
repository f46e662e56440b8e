package dev.seckill.sandbox;

import java.time.Duration;

import jakarta.validation.constraints.AssertTrue;
import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Positive;
import jakarta.validation.constraints.Size;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * The sandbox payment provider ({@link SandboxApplication}): a provider's API, checkout page and webhook deliveries,
 * misbehaving on purpose as real ones do (late, duplicated, out of order) so that the shop's receiving side is tested
 * against them.
 *
 * @param webhookUrl      the shop's webhook, where notifications are posted, e.g. {@code http://nginx:8080/payments/webhook}
 * @param webhookSecret   the secret each notification is signed with (HMAC-SHA256), the shop's
 *                        {@code seckill.payment.webhook.secret}; at least 16 characters
 * @param apiSecret       what the shop's calls to {@code /sandbox/api/**} carry as {@code Authorization: Bearer <secret>},
 *                        the shop's {@code seckill.payment.provider-secret}; at least 16 characters
 * @param publicUrl       what goes before {@code /sandbox/checkout/<ref>} in the checkout URL given to shoppers, e.g.
 *                        {@code https://shop.example}; empty gives the relative URL, which works behind any host name
 * @param pollInterval    how often each sandbox process looks for notifications that are due
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
@Validated
@ConfigurationProperties("seckill.sandbox")
record SandboxSettings(@NotBlank String webhookUrl, @NotNull @Size(min = 16) String webhookSecret,
        @NotNull @Size(min = 16) String apiSecret, @NotNull @DefaultValue("") String publicUrl, @NotNull @DefaultValue("200ms") Duration pollInterval,
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
