package dev.seckill.web.security;

import java.time.Duration;

import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.annotation.Validated;

/**
 * No defaults here on purpose: an instance refuses to start without credentials and a token secret
 * (scripts/cluster supplies development values for the local cluster only).
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
        @NotNull Duration tokenTtl,
        @NotBlank String adminUser,
        @NotBlank String adminPassword) {
}
