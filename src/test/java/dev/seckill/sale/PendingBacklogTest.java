package dev.seckill.sale;

import dev.seckill.sale.stream.FakeTicker;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.seckill.id.IdGenerator;
import dev.seckill.sale.OrderBacklogs.Backlog;
import dev.seckill.sale.OrderBacklogs.Reading;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The gauges' Redis reads: at most one a second for all vouchers, ages from the oldest order's id. */
class PendingBacklogTest {

    static final Instant NOW = Instant.parse("2026-11-24T10:00:00Z");

    final FakeTicker ticker = new FakeTicker(Long.MAX_VALUE - 500_000_000L);
    final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    final List<Collection<Long>> reads = new ArrayList<>();
    final Map<Long, Backlog> redis = new HashMap<>();
    final Set<Long> registered = new HashSet<>();
    RuntimeException outage;
    final PendingBacklog backlog = new PendingBacklog(vouchers -> {
        reads.add(Set.copyOf(vouchers));
        if (outage != null) {
            throw outage;
        }
        Map<Long, Backlog> found = new HashMap<>();
        vouchers.forEach(v -> found.put(v, redis.getOrDefault(v, new Backlog(0, 0))));
        return new Reading(Set.copyOf(registered), found);
    }, registry, Clock.fixed(NOW, ZoneOffset.UTC), ticker);

    @Test
    void everyGaugeOfEveryVoucherSharesOneReadPerSecond() {
        registered.addAll(Set.of(1L, 2L));
        redis.put(1L, new Backlog(3, orderIssuedAt(NOW.minusMillis(1500))));
        backlog.track(1);
        backlog.track(2);
        backlog.track(1);

        for (int scrape = 0; scrape < 3; scrape++) {
            assertThat(pending(1)).isEqualTo(3);
            assertThat(age(1)).isEqualTo(1500);
            assertThat(pending(2)).isZero();
            assertThat(age(2)).isZero();
            ticker.advance(Duration.ofMillis(300));
        }
        assertThat(reads).containsExactly(Set.of(1L, 2L));

        ticker.advance(Duration.ofMillis(100));
        redis.put(1L, new Backlog(1, orderIssuedAt(NOW.minusMillis(20))));
        assertThat(pending(1)).isEqualTo(1);
        assertThat(age(1)).isEqualTo(20);
        assertThat(reads).hasSize(2);
    }

    @Test
    void aNewlyTrackedVoucherIsReadAtOnce() {
        registered.addAll(Set.of(1L, 2L));
        backlog.track(1);
        pending(1);
        backlog.track(2);
        redis.put(2L, new Backlog(4, orderIssuedAt(NOW)));
        assertThat(pending(2)).isEqualTo(4);
        assertThat(reads).containsExactly(Set.of(1L), Set.of(1L, 2L));
    }

    @Test
    void anOutageShowsNaNAndIsTriedAgainOnlyASecondLater() {
        registered.add(1L);
        backlog.track(1);
        outage = new IllegalStateException("Redis down");
        assertThat(pending(1)).isNaN();
        assertThat(age(1)).isNaN();
        assertThat(reads).hasSize(1);

        outage = null;
        ticker.advance(Duration.ofSeconds(1));
        assertThat(pending(1)).isZero();
        assertThat(reads).hasSize(2);
    }

    @Test
    void aSaleThatLeftTheRegistryWithNothingPendingLosesItsGauges() {
        registered.add(1L);
        redis.put(2L, new Backlog(2, orderIssuedAt(NOW)));
        backlog.track(1);
        backlog.track(2);
        backlog.track(3);
        pending(1);
        // 1: still registered; 2: unregistered but orders pending (kept); 3: over and empty (removed)
        assertThat(registry.find("seckill.orders.pending").gauges()).extracting(g -> g.getId().getTag("voucher"))
                .containsExactlyInAnyOrder("1", "2");
        assertThat(registry.find("seckill.orders.pending.age").gauges()).hasSize(2);
    }

    @Test
    void theLiveNumbersReadAVoucherWithoutGaugesOnTheirOwn() {
        redis.put(9L, new Backlog(5, orderIssuedAt(NOW.minusSeconds(2))));
        Backlog found = backlog.of(9);
        assertThat(found.pending()).isEqualTo(5);
        assertThat(found.oldestAgeMillis(NOW.toEpochMilli())).isEqualTo(2000);
        assertThat(registry.find("seckill.orders.pending").gauges()).isEmpty();
    }

    private double pending(long voucherId) {
        return registry.get("seckill.orders.pending").tag("voucher", Long.toString(voucherId)).gauge().value();
    }

    private double age(long voucherId) {
        return registry.get("seckill.orders.pending.age").tag("voucher", Long.toString(voucherId)).gauge().value();
    }

    /** An order id issued at that instant (the snowflake layout: worker 1, sequence 0). */
    private static long orderIssuedAt(Instant at) {
        long id = ((at.toEpochMilli() - Instant.parse("2026-01-01T00:00:00Z").toEpochMilli()) << 22) | (1 << 12);
        assertThat(IdGenerator.issuedAt(id)).isEqualTo(at);
        return id;
    }
}
