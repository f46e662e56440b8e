package dev.seckill.sale.buying;

import java.time.Duration;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.ConstructorBinding;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * How the async path's enqueue calls are shared ({@link EnqueueCoalescer}) and tried again ({@link PurchaseAttempts}).
 *
 * @param maxBatch      the most orders of one voucher one enqueue call carries. Orders that arrive while a
 *                      call is in flight wait for it and go together in the next; a larger batch holds the
 *                      script (and with it every other command on that Redis shard) longer: a few
 *                      microseconds per order. 1 sends each order on its own, one after the other per voucher
 * @param retryAttempts how often a failed call is sent again (Redisson's own default for its commands, which this
 *                      call does without: see {@link PurchaseAttempts})
 * @param retryDelay    the first wait before a retry; later ones double up to {@code retryDelayMax}, each half
 *                      fixed, half random (Redisson's {@code EqualJitterDelay}, as for its own retries)
 */
@Validated
@ConfigurationProperties("seckill.enqueue")
record EnqueueSettings(@Min(1) @Max(1000) @DefaultValue("100") int maxBatch,
        @Min(0) @Max(10) @DefaultValue("4") int retryAttempts,
        @NotNull @DefaultValue("1s") Duration retryDelay,
        @NotNull @DefaultValue("2s") Duration retryDelayMax) {

    @ConstructorBinding
    EnqueueSettings {
    }

    /** Batches of {@code maxBatch}, retried as by default. */
    EnqueueSettings(int maxBatch) {
        this(maxBatch, 4, Duration.ofSeconds(1), Duration.ofSeconds(2));
    }
}
