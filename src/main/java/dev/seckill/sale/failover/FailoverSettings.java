package dev.seckill.sale.failover;

import java.time.Duration;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * What an instance keeps of the orders it accepted, to put them back into a new Redis master after a failover.
 *
 * @param journalWindow    how long an accepted order is kept: above the time from an order's 202 to a failover
 *                         being noticed (Sentinel's down-after plus its election plus {@code seckill.durability.epoch-check}).
 *                         Replication itself lags by milliseconds, so older orders are on every replica
 * @param journalMaxOrders the most it keeps, oldest dropped first, whatever the window: about 100 bytes each
 */
@Validated
@ConfigurationProperties("seckill.redis.failover")
record FailoverSettings(@NotNull @DefaultValue("60s") Duration journalWindow,
        @Min(1) @Max(10_000_000) @DefaultValue("500000") int journalMaxOrders) {
}
