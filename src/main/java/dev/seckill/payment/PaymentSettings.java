package dev.seckill.payment;

import java.time.Duration;

import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * @param secret           the secret the provider signs its notifications with (HMAC-SHA256); at least 16
 *                         characters. No default: the instance refuses to start without it (scripts/cluster sets a
 *                         development value)
 * @param tolerance        how far a notification's signed time may be from ours: older ones are refused as replays
 */
@Validated
@ConfigurationProperties("seckill.payment.webhook")
public record PaymentSettings(@NotBlank String secret, @NotNull @DefaultValue("5m") Duration tolerance) {
}
