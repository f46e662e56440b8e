package dev.seckill.sale.audit;

import java.time.Instant;
import java.util.Map;

import dev.seckill.sale.SaleMeters.VoucherCounts;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class LiveSnapshotTest {

    static final Instant AT = Instant.parse("2026-11-24T10:00:00.123Z");

    @Test
    void aVoucherReadsBackWhatWasWrittenAndOnlyItsOwn() {
        Map<String, String> fields = LiveSnapshot.encode(AT, Map.of(
                1L, new VoucherCounts(45, Map.of("sold-out", 3L, "rate-limited", 1L), 2, 44,
                        Map.of("compensated", 1L, "duplicate", 2L)),
                12L, new VoucherCounts(7, Map.of("sold-out", 9L), 0, 7, Map.of())));

        assertThat(LiveSnapshot.decode("app-1", fields, 1)).isEqualTo(new InstanceLive("app-1", AT, 45,
                Map.of("rate-limited", 1L, "sold-out", 3L), 2, 44, 3));
        // voucher 1's prefix must not catch voucher 12's fields, nor the other way round
        assertThat(LiveSnapshot.decode("app-1", fields, 12)).isEqualTo(new InstanceLive("app-1", AT, 7,
                Map.of("sold-out", 9L), 0, 7, 0));
    }

    @Test
    void anInstanceThatCountedNothingForTheVoucherShowsZeros() {
        Map<String, String> fields = LiveSnapshot.encode(AT, Map.of());
        assertThat(fields).containsOnlyKeys(LiveSnapshot.AT);
        assertThat(LiveSnapshot.decode("app-2", fields, 5)).isEqualTo(new InstanceLive("app-2", AT, 0, Map.of(), 0, 0, 0));
    }

    @Test
    void fieldsItDoesNotKnowAreLeftAlone() {
        // a newer instance may write more than this one reads (a rolling upgrade)
        Map<String, String> fields = Map.of("at", "1000", "v:3:accepted", "4", "v:3:something-new", "9");
        assertThat(LiveSnapshot.decode("app-3", fields, 3)).isEqualTo(new InstanceLive("app-3",
                Instant.ofEpochMilli(1000), 4, Map.of(), 0, 0, 0));
    }
}
