package dev.seckill.sale.audit;

import java.time.Duration;

import jakarta.validation.constraints.NotNull;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * @param every how often an instance writes its snapshot (its counters, read by
 *              {@code GET /admin/vouchers/{id}/live}) to Redis
 * @param ttl   how long a snapshot outlives its instance's last write: several times {@code every}, so that
 *              a slow write or a pause does not drop the instance from the page, short enough that a
 *              stopped instance leaves it soon
 */
@Validated
@ConfigurationProperties("seckill.live")
record LiveSettings(@NotNull @DefaultValue("1s") Duration every, @NotNull @DefaultValue("10s") Duration ttl) {
}
