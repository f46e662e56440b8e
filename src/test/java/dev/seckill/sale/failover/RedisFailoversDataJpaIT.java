package dev.seckill.sale.failover;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import dev.seckill.support.ContainerConnections;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.data.jpa.test.autoconfigure.DataJpaTest;
import org.springframework.boot.jdbc.test.autoconfigure.AutoConfigureTestDatabase;
import org.springframework.context.annotation.Import;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * MySQL's record of failovers, on the real schema: one row per failover however many instances notice it, the
 * instances alive then expected to replay, and a sale called whole only once each of them did and nothing was lost.
 * Each test rolls back: a failover committed to the shared test database would touch every other test's sales.
 */
@DataJpaTest
@AutoConfigureTestDatabase(replace = AutoConfigureTestDatabase.Replace.NONE)
@Import(ContainerConnections.class)
class RedisFailoversDataJpaIT {

    static final Instant NOW = Instant.parse("2026-11-26T06:00:00Z");
    static final Duration ALIVE = Duration.ofSeconds(10);

    @Autowired
    JdbcTemplate jdbc;

    RedisFailovers failovers;
    long voucher;

    @DynamicPropertySource
    static void servers(DynamicPropertyRegistry registry) {
        ContainerConnections.properties().forEach((name, value) -> registry.add(name, () -> value));
    }

    @BeforeEach
    void aClearRecordAndAVoucher() {
        // Inside the test's transaction, rolled back after it.
        for (String table : List.of("redis_watcher", "redis_topology", "redis_failover", "redis_failover_replay")) {
            jdbc.update("DELETE FROM " + table);
        }
        voucher = 1_000_000_000L + System.nanoTime() % 1_000_000;
        failovers = new RedisFailovers(jdbc, () -> voucher);
    }

    @Test
    void oneRowPerFailoverHoweverManyInstancesNoticeIt() {
        failovers.begin("10.0.0.1:6379", NOW);
        failovers.heartbeat("app-1/aa");
        failovers.heartbeat("app-2/bb");

        RedisFailovers.Switch first = failovers.switchTo("10.0.0.2:6379", NOW, "app-1", ALIVE);
        RedisFailovers.Switch second = failovers.switchTo("10.0.0.2:6379", NOW, "app-2", ALIVE);

        assertThat(first.recordedHere()).isTrue();
        assertThat(second.recordedHere()).as("the other instance finds it recorded").isFalse();
        assertThat(second.generation()).isEqualTo(first.generation());
        assertThat(jdbc.queryForObject("SELECT expected_replays FROM redis_failover WHERE generation = ?", String.class,
                first.generation())).isEqualTo("app-1/aa,app-2/bb");
        assertThat(failovers.recordedMasters()).contains("10.0.0.2:6379");
    }

    @Test
    void aSaleIsAccountedForOnlyOnceEveryInstanceAliveThenReplayedAndNothingWasLost() {
        failovers.begin("10.0.0.1:6379", NOW);
        failovers.heartbeat("app-1/aa");
        failovers.heartbeat("app-2/bb");
        long generation = failovers.switchTo("10.0.0.2:6379", NOW, "app-1", ALIVE).generation();
        assertThat(failovers.affecting(voucher + 1)).as("a voucher created after it lost nothing").isEmpty();

        failovers.recordReplay(generation, "app-1/aa", List.of(new FailoverReplay.Replayed(voucher, 40, 3, 0, 0, 0, 0,
                List.of())), true, NOW);
        RedisFailovers.Report halfway = failovers.affecting(voucher).orElseThrow();
        assertThat(halfway.latestAt()).isEqualTo(NOW);
        assertThat(halfway.reapplied()).isEqualTo(3);
        assertThat(halfway.allReplayed()).as("app-2 has not replayed: what it alone accepted is unknown").isFalse();
        assertThat(halfway.accountedFor()).isFalse();

        failovers.recordReplay(generation, "app-2/bb", List.of(), true, NOW);
        assertThat(failovers.affecting(voucher).orElseThrow().accountedFor()).isTrue();

        // A follow-up replay (an order a stale master answered late) adds what it put back; the same lost orders,
        // seen again, are not counted twice.
        failovers.recordReplay(generation, "app-1/aa", List.of(new FailoverReplay.Replayed(voucher, 43, 1, 1, 0, 0, 0,
                List.of(9L))), true, NOW);
        failovers.recordReplay(generation, "app-1/aa", List.of(new FailoverReplay.Replayed(voucher, 44, 0, 1, 0, 0, 0,
                List.of(9L))), true, NOW);
        RedisFailovers.Report followedUp = failovers.affecting(voucher).orElseThrow();
        assertThat(followedUp.reapplied()).isEqualTo(4);
        assertThat(followedUp.lost()).isEqualTo(1);
    }

    @Test
    void aReplayFromAJournalThatDroppedOrdersOfItsWindowNeverFinishes() {
        long generation = failoverReplayedByOneInstance(new FailoverReplay.Replayed(voucher, 10, 0, 0, 0, 0, 0, List.of()),
                false);
        assertThat(failovers.affecting(voucher).orElseThrow().allReplayed()).isFalse();
        assertThat(failovers.currentGeneration()).isEqualTo(generation);
    }

    @Test
    void anOrderThatCouldNotBePutBackMakesTheSaleUnaccountedFor() {
        failoverReplayedByOneInstance(new FailoverReplay.Replayed(voucher, 10, 0, 2, 0, 0, 0, List.of(7L, 8L)), true);

        RedisFailovers.Report report = failovers.affecting(voucher).orElseThrow();
        assertThat(report.allReplayed()).isTrue();
        assertThat(report.lost()).isEqualTo(2);
        assertThat(report.accountedFor()).isFalse();
    }

    @Test
    void ordersOfASaleStartedAfreshSinceAreReportedLeftOutAndLeaveTheSaleWhole() {
        failoverReplayedByOneInstance(new FailoverReplay.Replayed(voucher, 0, 0, 0, 0, 0, 200, List.of()), true);

        RedisFailovers.Report report = failovers.affecting(voucher).orElseThrow();
        assertThat(report.voided()).isEqualTo(200);
        assertThat(report.reapplied()).isZero();
        assertThat(report.accountedFor()).isTrue();
    }

    @Test
    void aWatcherSilentForLongerThanItsLivenessIsNotExpected() {
        failovers.begin("10.0.0.1:6379", NOW);
        failovers.heartbeat("app-1/aa");
        jdbc.update("INSERT INTO redis_watcher (watcher, seen_at) VALUES ('app-9/gone', "
                + "TIMESTAMPADD(MINUTE, -5, UTC_TIMESTAMP(3)))");
        long generation = failovers.switchTo("10.0.0.2:6379", NOW, "app-1", ALIVE).generation();

        assertThat(jdbc.queryForObject("SELECT expected_replays FROM redis_failover WHERE generation = ?", String.class,
                generation)).isEqualTo("app-1/aa");
        failovers.leave("app-1/aa");
        assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM redis_watcher WHERE watcher = 'app-1/aa'", Long.class)).isZero();
    }

    /** One instance alive, a failover it records, and its replay finding {@code found}; returns the failover. */
    private long failoverReplayedByOneInstance(FailoverReplay.Replayed found, boolean finished) {
        failovers.begin("10.0.0.1:6379", NOW);
        failovers.heartbeat("app-1/aa");
        long generation = failovers.switchTo("10.0.0.2:6379", NOW, "app-1", ALIVE).generation();
        failovers.recordReplay(generation, "app-1/aa", List.of(found), finished, NOW);
        return generation;
    }
}
