package dev.seckill.sale.durability;

import java.time.Duration;

import jakarta.validation.constraints.NotNull;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * @param epochCheck how often each instance compares Redis's epoch marker with MySQL's: the longest a loss
 *                   goes unnoticed when no request touches the lost keys (a loss is logged, counted and reported by the
 *                   audit; see docs/reliability.md)
 */
@Validated
@ConfigurationProperties("seckill.durability")
public record DurabilitySettings(@NotNull @DefaultValue("1s") Duration epochCheck) {
}
