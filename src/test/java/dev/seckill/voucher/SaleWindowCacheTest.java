package dev.seckill.voucher;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

import dev.seckill.refusal.Reason;
import dev.seckill.refusal.Refusal;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A flood of made-up voucher ids must not reach MySQL: at most one load a second, however many arrive. */
class SaleWindowCacheTest {

    static final SaleWindow WINDOW = new SaleWindow(Instant.parse("2026-11-22T10:00:00Z"), Instant.parse("2026-11-23T10:00:00Z"));

    final Map<Long, SaleWindow> database = new LinkedHashMap<>();
    final List<Long> loads = new ArrayList<>();
    /** The monotonic clock the cache times its loads by; it starts anywhere, negative too. */
    final FakeTicker clock = new FakeTicker(-5_000_000_000L);
    final List<String> announced = new ArrayList<>();
    final SaleWindowCache cache = new SaleWindowCache(this::loadAfter, clock::nanos, announced::add);

    @Test
    void unknownIdsAtOrBelowTheHighestLoadedCostNoQuery() {
        database.put(1L, WINDOW);
        database.put(2L, WINDOW);
        assertThat(cache.require(2)).isEqualTo(WINDOW);
        assertThat(loads).containsExactly(0L);

        clock.advance(Duration.ofMinutes(5));
        for (long id : new long[] {-7, 0}) {
            assertNotFound(id);
        }
        assertThat(loads).as("no query for ids that cannot be new").containsExactly(0L);
    }

    @Test
    void aFloodOfRandomIdsCostsAtMostOneLoadASecond() {
        database.put(1L, WINDOW);
        for (int i = 0; i < 10_000; i++) {
            assertNotFound(ThreadLocalRandom.current().nextLong(2, Long.MAX_VALUE));
            clock.advance(Duration.ofMillis(1)); // 10,000 requests over 10 s
        }
        assertThat(loads).hasSizeLessThanOrEqualTo(10);
    }

    @Test
    void aVoucherCreatedSinceTheLastLoadIsFoundByTheNextOne() {
        database.put(1L, WINDOW);
        cache.require(1);
        database.put(2L, WINDOW);
        clock.advance(Duration.ofMillis(SaleWindowCache.REFRESH_GAP_MILLIS));

        assertThat(cache.require(2)).isEqualTo(WINDOW);
        assertThat(loads).containsExactly(0L, 1L);
    }

    @Test
    void aVoucherAnnouncedByAnotherInstanceNeedsNoQuery() {
        database.put(1L, WINDOW);
        cache.require(1);
        cache.created("5," + WINDOW.begin().toEpochMilli() + "," + WINDOW.end().toEpochMilli());

        assertThat(cache.require(5)).isEqualTo(WINDOW);
        assertThat(loads).containsExactly(0L);
    }

    @Test
    void anAnnouncedDifficultyIsKeptAndAMalformedAnnouncementIgnored() {
        database.put(1L, WINDOW);
        cache.require(1);
        String times = "," + WINDOW.begin().toEpochMilli() + "," + WINDOW.end().toEpochMilli();

        cache.created("5" + times + ",0");
        cache.created("6" + times + ",-3");
        cache.created("7" + times + ",x");

        assertThat(cache.require(5)).isEqualTo(new SaleWindow(WINDOW.begin(), WINDOW.end(), 0));
        assertThat(cache.find(6)).as("ignored: read from MySQL, where there is none").isEmpty();
        assertThat(cache.find(7)).isEmpty();
    }

    @Test
    void aVoucherCreatedHereIsAnnouncedWithItsDifficultyAndPaymentWindow() {
        SaleWindow hard = new SaleWindow(WINDOW.begin(), WINDOW.end(), 70_000, Duration.ofSeconds(90));
        cache.remember(8, hard);
        assertThat(announced).containsExactly("8," + WINDOW.begin().toEpochMilli() + "," + WINDOW.end().toEpochMilli()
                + ",70000,90000");
    }

    @Test
    void aVoucherCreatedHereIsAnnounced() {
        cache.remember(9, WINDOW);
        assertThat(cache.require(9)).isEqualTo(WINDOW);
        assertThat(announced).containsExactly("9," + WINDOW.begin().toEpochMilli() + "," + WINDOW.end().toEpochMilli() + ",,");
        assertThat(loads).isEmpty();
    }

    /** Each instance gives the voucher's orders the voucher's window: what one announces, the others learn whole. */
    @Test
    void whatOneInstanceAnnouncesAnotherLearnsWhole() {
        List<String> wire = new ArrayList<>();
        SaleWindowCache here = new SaleWindowCache(this::loadAfter, clock::nanos, wire::add);
        SaleWindow quick = new SaleWindow(WINDOW.begin(), WINDOW.end(), null, Duration.ofMillis(10_500));
        SaleWindow hard = new SaleWindow(WINDOW.begin(), WINDOW.end(), 0, Duration.ofMinutes(15));
        here.remember(11, quick);
        here.remember(12, hard);
        here.remember(13, WINDOW);
        database.put(1L, WINDOW);
        cache.require(1);

        wire.forEach(cache::created);

        assertThat(cache.require(11)).isEqualTo(quick);
        assertThat(cache.require(12)).isEqualTo(hard);
        assertThat(cache.require(13)).isEqualTo(WINDOW);
        assertThat(loads).as("learnt from the announcements").containsExactly(0L);
    }

    @Test
    void aPaymentWindowThatIsNoWindowLeavesTheVoucherToMySql() {
        database.put(1L, WINDOW);
        cache.require(1);
        String times = "," + WINDOW.begin().toEpochMilli() + "," + WINDOW.end().toEpochMilli();

        cache.created("5" + times + ",,0");
        cache.created("6" + times + ",,-1000");
        cache.created("7" + times + ",,soon");

        assertThat(cache.find(5)).isEmpty();
        assertThat(cache.find(6)).isEmpty();
        assertThat(cache.find(7)).isEmpty();
    }

    private Map<Long, SaleWindow> loadAfter(long afterId) {
        loads.add(afterId);
        Map<Long, SaleWindow> result = new LinkedHashMap<>();
        database.forEach((id, window) -> {
            if (id > afterId) {
                result.put(id, window);
            }
        });
        return result;
    }

    private void assertNotFound(long id) {
        assertThatThrownBy(() -> cache.require(id)).isInstanceOfSatisfying(Refusal.class,
                p -> assertThat(p.reason()).isEqualTo(Reason.VOUCHER_NOT_FOUND));
    }

    static final class FakeTicker {

        private long nanos;

        FakeTicker(long nanos) {
            this.nanos = nanos;
        }

        void advance(Duration by) {
            nanos += by.toNanos();
        }

        long nanos() {
            return nanos;
        }
    }
}
