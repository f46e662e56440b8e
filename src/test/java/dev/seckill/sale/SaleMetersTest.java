package dev.seckill.sale;

import java.util.Map;

import dev.seckill.SeckillSettings;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class SaleMetersTest {

    final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    final SaleMeters meters = new SaleMeters(registry, new SeckillSettings(SeckillSettings.Mode.SYNC));

    @Test
    void countsPerVoucherAndCodeWithTheModeOnAcceptedOrders() {
        meters.accepted(1);
        meters.accepted(1);
        meters.accepted(2);
        meters.refused(1, "sold-out");
        meters.refused(1, "sold-out");
        meters.refused(1, "already-ordered");
        meters.replayed(2);
        meters.written(1, 5);
        meters.written(1, 0);
        meters.givenUp(2, SaleMeters.GiveUpReason.COMPENSATED);

        assertThat(registry.get("seckill.orders.accepted").tags("voucher", "1", "mode", "sync").counter().count())
                .isEqualTo(2);
        assertThat(registry.get("seckill.orders.refused").tags("voucher", "1", "code", "sold-out").counter().count())
                .isEqualTo(2);
        assertThat(meters.counts()).containsOnlyKeys(1L, 2L);
        assertThat(meters.counts().get(1L)).isEqualTo(new SaleMeters.VoucherCounts(2,
                Map.of("already-ordered", 1L, "sold-out", 2L), 0, 5, Map.of()));
        assertThat(meters.counts().get(2L)).isEqualTo(new SaleMeters.VoucherCounts(1, Map.of(), 1, 0,
                Map.of("compensated", 1L)));
    }

    @Test
    void theSameCounterIsFoundAgainNotRegisteredAgain() {
        meters.refused(7, "rate-limited");
        Counter first = registry.get("seckill.orders.refused").tags("voucher", "7", "code", "rate-limited").counter();
        meters.refused(7, "rate-limited");
        assertThat(registry.get("seckill.orders.refused").counters()).containsExactly(first);
        assertThat(first.count()).isEqualTo(2);
    }

    @Test
    void anUnknownVoucherIsNotATag() {
        meters.refusedUnknownVoucher("voucher-not-found");
        meters.refusedUnknownVoucher("voucher-not-found");

        assertThat(registry.get("seckill.orders.refused").counters()).hasSize(1);
        assertThat(registry.get("seckill.orders.refused").tags("voucher", "unknown", "code", "voucher-not-found")
                .counter().count()).isEqualTo(2);
        assertThat(meters.counts()).isEmpty();
    }

    @Test
    void enqueueCallsAndOrdersAreReadFromTheirSource() {
        long[] calls = {3};
        meters.bindEnqueueCounts(() -> calls[0], () -> 10);
        calls[0] = 4;
        assertThat(registry.get("seckill.redis.enqueue.calls").functionCounter().count()).isEqualTo(4);
        assertThat(registry.get("seckill.redis.enqueue.orders").functionCounter().count()).isEqualTo(10);
    }

    @Test
    void enqueueCountsAreStillReadAfterAGarbageCollection() {
        long[] calls = {3};
        meters.bindEnqueueCounts(() -> calls[0], () -> 10);
        System.gc();
        calls[0] = 5;
        assertThat(registry.get("seckill.redis.enqueue.calls").functionCounter().count()).isEqualTo(5);
        assertThat(registry.get("seckill.redis.enqueue.orders").functionCounter().count()).isEqualTo(10);
    }
}
