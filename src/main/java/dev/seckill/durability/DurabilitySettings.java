package dev.seckill.durability;

import java.time.Duration;

import jakarta.validation.constraints.NotNull;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.annotation.Validated;

/**
 * @param epochCheck how often each instance compares Redis's epoch marker with MySQL's: the longest a loss
 *                   goes unnoticed when no request touches the lost keys
 */
@Validated
@ConfigurationProperties("seckill.durability")
record DurabilitySettings(@NotNull Duration epochCheck) {
}
