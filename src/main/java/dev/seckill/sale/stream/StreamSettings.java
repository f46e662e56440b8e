package dev.seckill.sale.stream;

import java.time.Duration;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * The order streams and their consumers (async mode), both in this package.
 *
 * @param group        the one consumer group all instances share
 * @param batchSize    messages read, and orders inserted, at once
 * @param idlePoll     how long a consumer sleeps when no stream had anything
 * @param claimIdle    a message unacknowledged this long is taken over from its (presumably dead)
 *                     consumer by a live one
 * @param maxAttempts  failed attempts to persist one order before it is given up: compensated and
 *                     dead-lettered; an outage of MySQL or Redis counts no attempt
 * @param consumers    consumer threads per instance; 0 makes an instance that only takes orders (other
 *                     instances write them)
 * @param consumerName this instance's consumer name (its threads add -1, -2, ...); unique per instance, so
 *                     that a restarted instance finds the messages it had not acknowledged. application.yml
 *                     sets it to {@code seckill.web.instance-id}
 */
@Validated
@ConfigurationProperties("seckill.stream")
public record StreamSettings(@NotBlank @DefaultValue("order-writers") String group,
        @Min(1) @Max(1000) @DefaultValue("200") int batchSize, @NotNull @DefaultValue("20ms") Duration idlePoll,
        @NotNull @DefaultValue("30s") Duration claimIdle, @Min(1) @DefaultValue("3") int maxAttempts,
        @Min(0) @Max(16) @DefaultValue("1") int consumers, @NotBlank String consumerName) {
}
