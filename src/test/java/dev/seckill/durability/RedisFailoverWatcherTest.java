package dev.seckill.durability;

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
import dev.seckill.salestate.FailoverReplay;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** When the watcher records a failover and replays its journal: a fake record, fake masters, a fake clock. */
class RedisFailoverWatcherTest {

    final AtomicReference<String> masters = new AtomicReference<>("10.0.0.1:6379");
    final AtomicLong nanos = new AtomicLong();
    final FakeRecord record = new FakeRecord();
    final List<String> replays = new ArrayList<>();
    RuntimeException replayFails;

    final RedisFailoverWatcher watcher = new RedisFailoverWatcher(masters::get, record, () -> {
        if (replayFails != null) {
            throw replayFails;
        }
        replays.add("at " + Duration.ofNanos(nanos.get()).toSeconds() + " s");
        return List.of(new FailoverReplay.Replayed(7, 3, 1, 0, 0, 0, List.of()));
    }, new DurabilitySettings(Duration.ofSeconds(1)), Clock.fixed(Instant.parse("2026-11-26T06:00:00Z"), ZoneOffset.UTC),
            nanos::get, new SimpleMeterRegistry(), new InstanceIdentity("app-1"));

    @Test
    void theFirstCheckRecordsTheMastersAndReplaysNothing() {
        assertThat(watcher.check()).isFalse();
        assertThat(record.masters).isEqualTo("10.0.0.1:6379");
        assertThat(record.switches).isEmpty();
        assertThat(replays).isEmpty();
        assertThat(watcher.check()).as("nothing changed").isFalse();
    }

    @Test
    void aNewMasterIsRecordedAndTheJournalReplayedForThatFailover() {
        watcher.check();
        masters.set("10.0.0.2:6379");

        assertThat(watcher.check()).isTrue();
        assertThat(record.switches).containsExactly("10.0.0.2:6379");
        assertThat(replays).hasSize(1);
        assertThat(record.replays).containsExactly("generation 1: 1 vouchers");
        assertThat(watcher.check()).as("once").isFalse();
        assertThat(replays).hasSize(1);
    }

    @Test
    void aReplayThatFailedRunsAgainAtTheNextCheckAndAnswersEverySwitchSinceTheLastOne() {
        watcher.check();
        masters.set("10.0.0.2:6379");
        replayFails = new IllegalStateException("the new master is not answering yet");
        assertThatThrownBy(watcher::check).isSameAs(replayFails);
        assertThat(record.replays).as("not recorded as replayed").isEmpty();

        masters.set("10.0.0.3:6379");
        replayFails = null;
        assertThat(watcher.check()).isTrue();
        assertThat(record.switches).containsExactly("10.0.0.2:6379", "10.0.0.3:6379");
        assertThat(record.replays).as("the counts once, with the latest; both failovers hear from this instance")
                .containsExactly("generation 1: 0 vouchers", "generation 2: 1 vouchers");
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
        assertThat(replays).containsExactly("at 0 s", "at 5 s", "at 15 s", "at 30 s");
        assertThat(record.replays).allMatch(replay -> replay.startsWith("generation 1:")).hasSize(4);
    }

    @Test
    void aFailoverWhileThisInstanceWasDownIsRecordedWithAnEmptyReplayOfItsOwn() {
        record.masters = "10.0.0.9:6379";
        assertThat(watcher.check()).isFalse();
        assertThat(record.switches).containsExactly("10.0.0.1:6379");
        assertThat(replays).as("this process accepted nothing before it started").isEmpty();
        assertThat(record.replays).containsExactly("generation 1: 0 vouchers");
    }

    /** MySQL's record, in memory. */
    static final class FakeRecord extends RedisFailovers {

        String masters;
        long generation;
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
            }
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
        void recordReplay(long generation, String watcher, List<FailoverReplay.Replayed> replayed, Instant now) {
            replays.add("generation " + generation + ": " + replayed.size() + " vouchers");
        }
    }
}
