package dev.seckill.web.security;

import java.time.Duration;

import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * No defaults for the secrets on purpose: an instance refuses to start without credentials and a token secret
 * (scripts/cluster supplies development values for the local cluster only); application.yml reads them from
 * {@code SECKILL_TOKEN_SECRET}, {@code SECKILL_ADMIN_USER} and {@code SECKILL_ADMIN_PASSWORD}.
 *
 * @param tokenSecret   HMAC key shared by every instance, so any of them can check any token
 * @param tokenTtl      how long a minted shopper token stays valid
 * @param adminUser     HTTP Basic user for /admin and the non-public actuator endpoints
 * @param adminPassword its password
 */
@Validated
@ConfigurationProperties("seckill.auth")
public record AuthSettings(
        @NotBlank @Size(min = 32, message = "must be at least 32 characters") String tokenSecret,
        @NotNull @DefaultValue("24h") Duration tokenTtl,
        @NotBlank String adminUser,
        @NotBlank String adminPassword) {
}
