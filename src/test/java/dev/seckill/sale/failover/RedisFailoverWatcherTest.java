package dev.seckill.sale.failover;

import dev.seckill.sale.durability.DurabilitySettings;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import dev.seckill.InstanceIdentity;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** When the watcher records a failover and replays its journal: a fake record, fake masters, a fake clock. */
class RedisFailoverWatcherTest {

    static final AcceptedOrdersJournal.Entry ORDER = new AcceptedOrdersJournal.Entry(7, 0, 1, 101, 1_000, true, 0);

    final AtomicReference<String> masters = new AtomicReference<>("10.0.0.1:6379");
    final AtomicLong nanos = new AtomicLong();
    final FakeRecord record = new FakeRecord();
    final List<String> replays = new ArrayList<>();
    AcceptedOrdersJournal.Snapshot journal = new AcceptedOrdersJournal.Snapshot(List.of(ORDER), true);
    RuntimeException replayFails;

    final RedisFailoverWatcher watcher = new RedisFailoverWatcher(masters::get, record, () -> journal, orders -> {
        if (replayFails != null) {
            throw replayFails;
        }
        replays.add("at " + Duration.ofNanos(nanos.get()).toSeconds() + " s");
        return orders.entries().isEmpty() ? List.of()
                : List.of(new FailoverReplay.Replayed(7, 0, orders.entries().size(), 0, 0, 0, 0, List.of()));
    }, Duration.ofMinutes(1), new DurabilitySettings(Duration.ofSeconds(1)),
            Clock.fixed(Instant.parse("2026-11-26T06:00:00Z"), ZoneOffset.UTC), nanos::get, new SimpleMeterRegistry(),
            new InstanceIdentity("app-1"));

    @Test
    void theFirstCheckRecordsTheMastersAndAnswersForNoFailover() {
        assertThat(watcher.check()).isFalse();
        assertThat(record.masters).isEqualTo("10.0.0.1:6379");
        assertThat(record.switches).isEmpty();
        assertThat(record.replays).isEmpty();
        assertThat(watcher.check()).as("nothing changed").isFalse();
        assertThat(record.replays).isEmpty();
    }

    @Test
    void aNewMasterIsRecordedAndTheJournalReplayedForThatFailover() {
        watcher.check();
        masters.set("10.0.0.2:6379");

        assertThat(watcher.check()).isTrue();
        assertThat(record.switches).containsExactly("10.0.0.2:6379");
        assertThat(record.replays).containsExactly("generation 1: 1 vouchers, finished");
        assertThat(watcher.check()).as("once").isFalse();
        assertThat(record.replays).hasSize(1);
    }

    @Test
    void aReplayThatFailedRunsAgainWithTheJournalOfThatMomentAndAnswersEverySwitchSince() {
        watcher.check();
        masters.set("10.0.0.2:6379");
        replayFails = new IllegalStateException("the new master is not answering yet");
        assertThatThrownBy(watcher::check).isSameAs(replayFails);
        assertThat(record.replays).as("not recorded as replayed").isEmpty();

        // Meanwhile the journal's window moved past the order: the replay still owes it.
        journal = new AcceptedOrdersJournal.Snapshot(List.of(), true);
        masters.set("10.0.0.3:6379");
        replayFails = null;
        assertThat(watcher.check()).isTrue();
        assertThat(record.switches).containsExactly("10.0.0.2:6379", "10.0.0.3:6379");
        assertThat(record.replays).as("the counts once, with the latest; both failovers hear from this instance")
                .containsExactly("generation 1: 0 vouchers, finished", "generation 2: 1 vouchers, finished");
    }

    @Test
    void aFailoverAnotherInstanceRecordedIsAnsweredThoughThisOnesViewSkippedIt() {
        watcher.check();
        masters.set("10.0.0.2:6379");
        record.switchTo("10.0.0.2:6379", Instant.EPOCH, "app-2", Duration.ZERO);
        record.switchTo("10.0.0.3:6379", Instant.EPOCH, "app-2", Duration.ZERO);
        masters.set("10.0.0.3:6379");

        assertThat(watcher.check()).isTrue();
        assertThat(record.replays).containsExactly("generation 1: 0 vouchers, finished",
                "generation 2: 1 vouchers, finished");
    }

    @Test
    void theJournalIsReplayedAgainAfterTheSwitchForAStaleMastersLateAnswers() {
        watcher.check();
        masters.set("10.0.0.2:6379");
        watcher.check();
        for (int second = 1; second <= 40; second++) {
            nanos.set(Duration.ofSeconds(second).toNanos());
            watcher.check();
        }
        assertThat(replays).containsExactly("at 0 s", "at 0 s", "at 5 s", "at 15 s", "at 30 s");
        assertThat(record.replays).allMatch(replay -> replay.startsWith("generation 1:")).hasSize(4);
    }

    @Test
    void aJournalThatDroppedOrdersOfItsWindowNeverFinishesItsReplay() {
        watcher.check();
        journal = new AcceptedOrdersJournal.Snapshot(List.of(ORDER), false);
        masters.set("10.0.0.2:6379");
        watcher.check();
        assertThat(record.replays).containsExactly("generation 1: 1 vouchers, NOT finished");
    }

    @Test
    void aFailoverWhileThisInstanceWasDownIsRecordedAndAnsweredWithWhatItJournaledSinceItStarted() {
        record.masters = "10.0.0.9:6379";
        record.generation = 0;
        journal = new AcceptedOrdersJournal.Snapshot(List.of(), true);
        assertThat(watcher.check()).isFalse();
        assertThat(record.switches).containsExactly("10.0.0.1:6379");
        assertThat(record.replays).containsExactly("generation 1: 0 vouchers, finished");
    }

    /** MySQL's record, in memory. */
    static final class FakeRecord extends RedisFailovers {

        String masters;
        long generation = -1;
        final List<String> switches = new ArrayList<>();
        final List<String> replays = new ArrayList<>();

        FakeRecord() {
            super(null, () -> 0);
        }

        @Override
        void heartbeat(String watcher) {
        }

        @Override
        void leave(String watcher) {
        }

        @Override
        Optional<String> recordedMasters() {
            return Optional.ofNullable(masters);
        }

        @Override
        void begin(String masters, Instant now) {
            if (this.masters == null) {
                this.masters = masters;
                generation = 0;
            }
        }

        @Override
        long currentGeneration() {
            return generation;
        }

        @Override
        Switch switchTo(String masters, Instant now, String instanceId, Duration alive) {
            if (masters.equals(this.masters)) {
                return new Switch(generation, false);
            }
            this.masters = masters;
            switches.add(masters);
            return new Switch(++generation, true);
        }

        @Override
        void recordReplay(long generation, String watcher, List<FailoverReplay.Replayed> replayed, boolean finished,
                Instant now) {
            replays.add("generation " + generation + ": " + replayed.size() + " vouchers, "
                    + (finished ? "finished" : "NOT finished"));
        }
    }
}
