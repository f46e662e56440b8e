package dev.seckill.web;

import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.util.unit.DataSize;
import org.springframework.validation.annotation.Validated;

/**
 * @param instanceId   sent as {@code X-Instance-Id} on every response, so a load test can see which
 *                     instance behind Nginx answered
 * @param maxBodySize  bodies above this are refused with 413 before anything parses them
 */
@Validated
@ConfigurationProperties("seckill.web")
record WebSettings(@NotBlank String instanceId, @NotNull DataSize maxBodySize) {
}
