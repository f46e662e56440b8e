package dev.seckill.salestate;

import java.time.Duration;

import jakarta.validation.constraints.NotNull;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * @param soldOutRecheck how long a sold-out flag is trusted before one request re-reads the counter (one
 *                       Redis GET per voucher per instance per interval); also the longest a stale flag (a
 *                       sold-out answer read before a restock, a clear message that never arrived) keeps an
 *                       instance refusing units that are back on sale
 * @param resetFence     how long a stock reset may keep orders out at most (they are answered voucher-busy
 *                       meanwhile): the fence expires by itself if the instance dies mid-reset. Well above
 *                       the reset's own work (a few statements, each bounded by the JDBC socket timeout)
 */
@Validated
@ConfigurationProperties("seckill.stock")
public record StockSettings(@NotNull @DefaultValue("500ms") Duration soldOutRecheck,
        @NotNull @DefaultValue("30s") Duration resetFence) {
}
