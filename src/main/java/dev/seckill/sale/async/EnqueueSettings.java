package dev.seckill.sale.async;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * How the async path's enqueue calls are shared ({@link EnqueueCoalescer}).
 *
 * @param maxBatch the most orders of one voucher one enqueue call carries. Orders that arrive while a
 *                 call is in flight wait for it and go together in the next; a larger batch holds the
 *                 script (and with it every other command on that Redis shard) longer: a few
 *                 microseconds per order. 1 sends each order on its own, one after the other per voucher
 */
@Validated
@ConfigurationProperties("seckill.enqueue")
record EnqueueSettings(@Min(1) @Max(1000) @DefaultValue("100") int maxBatch) {
}
