package dev.seckill.sale.room;

import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The published draws: read once each, bounded by entrants in all, forgotten for a fresh sale. */
class PublishedDrawsTest {

    final JsonMapper mapper = JsonMapper.builder().build();
    final PublishedDraws draws = PublishedDraws.bounded(mapper, 1_000);

    @Test
    void aDrawIsReadOnceAndEncodedOnce() {
        AtomicInteger reads = new AtomicInteger();
        PublishedDraws.PublishedDraw first = draws.get(1, () -> draw(1, 10, reads));
        PublishedDraws.PublishedDraw again = draws.get(1, () -> draw(1, 10, reads));

        assertThat(reads).hasValue(1);
        assertThat(again).isSameAs(first);
    }

    @Test
    void theDrawsKeptNeverHoldMoreEntrantsThanTheBound() {
        AtomicInteger reads = new AtomicInteger();
        for (long voucher = 1; voucher <= 5; voucher++) {
            long id = voucher;
            draws.get(id, () -> draw(id, 400, reads));
        }
        assertThat(draws.size()).as("400 entrants each, 1,000 in all").isBetween(1L, 2L);
    }

    @Test
    void aDrawNotYetDueIsNotKeptAndAFreshSaleIsReadAgain() {
        AtomicInteger reads = new AtomicInteger();
        assertThatThrownBy(() -> draws.get(1, () -> {
            throw new IllegalStateException("not drawn yet");
        })).hasMessage("not drawn yet");
        draws.get(1, () -> draw(1, 10, reads));
        draws.forget(1);
        draws.get(1, () -> draw(1, 10, reads));
        assertThat(reads).hasValue(2);
    }

    private static RoomDraw draw(long voucher, int entrants, AtomicInteger reads) {
        reads.incrementAndGet();
        Instant opens = Instant.parse("2026-11-29T10:00:00Z");
        List<String> ids = IntStream.range(0, entrants).mapToObj(Integer::toString).toList();
        return new RoomDraw(voucher, opens, opens.plusSeconds(60), "c", "s", "h", ids, RoomDraw.RULE);
    }
}
