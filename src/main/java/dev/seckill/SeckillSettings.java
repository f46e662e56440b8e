package dev.seckill;

import jakarta.validation.constraints.NotNull;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * @param mode {@code sync}: each order is written to MySQL inside the request, under the shopper's
 *             and the voucher's locks (201); {@code async}: the request only runs one Lua script in Redis
 *             and the order reaches MySQL through the voucher's order stream (202 PENDING, then AWAITING_PAYMENT)
 */
@Validated
@ConfigurationProperties("seckill")
public record SeckillSettings(@NotNull @DefaultValue("async") Mode mode) {

    public enum Mode { SYNC, ASYNC }

    public boolean async() {
        return mode == Mode.ASYNC;
    }
}
