package dev.seckill.salestate;

import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import org.springframework.stereotype.Component;

/**
 * How long the seckill path's locks are waited for, and how many were found gone when released: with
 * the watchdog that count stays 0 unless a holder's process stalled past the watchdog timeout.
 */
@Component
class LockMeters {

    private final Timer shopperWait;
    private final Timer voucherWait;
    private final Counter expired;

    LockMeters(MeterRegistry registry) {
        // Percentile histograms: Prometheus computes p50/p99 across instances (histogram_quantile), which
        // client-side percentiles cannot be summed into.
        this.shopperWait = waitTimer(registry, "shopper");
        this.voucherWait = waitTimer(registry, "voucher");
        this.expired = Counter.builder("seckill.lock.expired")
                .description("Locks that had expired when their holder released them: someone else may have held them too")
                .register(registry);
    }

    private static Timer waitTimer(MeterRegistry registry, String lock) {
        return Timer.builder("seckill.lock.wait")
                .description("Time spent taking a Redisson lock of the seckill path (sync orders, resets, sweeps)")
                .tag("lock", lock).publishPercentileHistogram().register(registry);
    }

    void shopperWaited(long nanos) {
        shopperWait.record(nanos, TimeUnit.NANOSECONDS);
    }

    void voucherWaited(long nanos) {
        voucherWait.record(nanos, TimeUnit.NANOSECONDS);
    }

    void expiredBeforeRelease() {
        expired.increment();
    }
}
