package dev.seckill.durability;

import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

import dev.seckill.InstanceIdentity;
import dev.seckill.order.OrderRecords;
import dev.seckill.platform.PeriodicTask;
import dev.seckill.platform.ShutdownOrder;
import dev.seckill.salestate.FailoverReplay;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.redisson.api.RedissonClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;

/**
 * Notices that Redis failed over, every {@code seckill.durability.epoch-check}: the masters Redisson writes to are
 * not the ones it wrote to a moment ago ({@link RedisMasters}). Replication is asynchronous, so the promoted replica
 * may lack the last orders the old master accepted; the epoch marker cannot tell (the replica holds it). So:
 * <ol>
 *   <li>the failover is recorded in MySQL once, however many instances notice, with the instances alive then
 *       ({@link RedisFailovers#switchTo}); logged as an error and counted ({@code seckill.redis.failovers}) by the
 *       instance that recorded it;</li>
 *   <li>every instance replays the orders it accepted in the last {@code seckill.redis.failover.journal-window} into
 *       the new master ({@link FailoverReplay}): what the master lacks goes back, what cannot (no unit left, the
 *       shopper bought again) is counted lost, logged with its order ids and recorded, so the audit of the sale says
 *       so ({@link RedisFailovers.Report});</li>
 *   <li>until every instance alive at the failover has replayed, the audit cannot call an affected sale whole.</li>
 * </ol>
 * A failover that happened while this instance was down is recorded at its start (it has nothing to replay).
 */
@Component
class RedisFailoverWatcher extends PeriodicTask {

    private static final Logger log = LoggerFactory.getLogger(RedisFailoverWatcher.class);
    /** After a failover's replay, when the journal is replayed again (see {@link #followUp}). */
    static final List<Duration> FOLLOW_UPS = List.of(Duration.ofSeconds(5), Duration.ofSeconds(15), Duration.ofSeconds(30));

    /** The masters Redisson writes to now ({@link RedisMasters}). */
    private final Supplier<String> masters;
    private final RedisFailovers failovers;
    /** Replays this instance's journal into the master there is now ({@link FailoverReplay}). */
    private final Supplier<List<FailoverReplay.Replayed>> replay;
    private final Clock clock;
    private final String instanceId;
    /** This process: a restarted instance with the same id did not journal what its predecessor accepted. */
    private final String watcher;
    private final Duration alive;
    private final Counter failoversSeen;
    private final Counter reapplied;
    private final Counter lost;
    /** The masters this instance last wrote to and replayed for; null until the first check. */
    private volatile String lastSeen;
    /** A switch seen whose replay has not succeeded yet: its failures are worth a warning, a Redis outage's are not. */
    private volatile boolean replayDue;
    /** Failovers recorded since this instance's last replay that succeeded: each expects its replay. */
    private final Set<Long> unreplayed = new LinkedHashSet<>();
    /** When (monotonic nanos) the follow-ups of the last failover are due, and the failover they belong to. */
    private final Deque<Long> followUps = new ArrayDeque<>();
    private long followUpGeneration;
    private final LongSupplier nanoTime;

    @Autowired
    RedisFailoverWatcher(RedissonClient redisson, RedisFailovers failovers, FailoverReplay replay, OrderRecords orders,
            DurabilitySettings settings, Clock clock, MeterRegistry meters, InstanceIdentity identity) {
        this(new RedisMasters(redisson)::current, failovers, () -> replay.replay(orders::inMySql), settings, clock,
                System::nanoTime, meters, identity);
    }

    RedisFailoverWatcher(Supplier<String> masters, RedisFailovers failovers, Supplier<List<FailoverReplay.Replayed>> replay,
            DurabilitySettings settings, Clock clock, LongSupplier nanoTime, MeterRegistry meters,
            InstanceIdentity identity) {
        super("redis-failover-watcher", settings.epochCheck(), ShutdownOrder.REDIS_EPOCH_CHECK);
        this.nanoTime = nanoTime;
        this.masters = masters;
        this.failovers = failovers;
        this.replay = replay;
        this.clock = clock;
        this.instanceId = identity.instanceId();
        this.watcher = watcherName(instanceId);
        // Missed beats of a live instance (a GC pause, a slow check) must not drop it from the expected replays.
        this.alive = settings.epochCheck().multipliedBy(5).plusSeconds(5);
        this.failoversSeen = Counter.builder("seckill.redis.failovers")
                .description("Redis failovers (a new master) this instance was the first to record").register(meters);
        this.reapplied = Counter.builder("seckill.redis.failover.replayed").tag("outcome", "reapplied")
                .description("Accepted orders replayed into a new master after a failover, by what it found")
                .register(meters);
        this.lost = Counter.builder("seckill.redis.failover.replayed").tag("outcome", "lost")
                .description("Accepted orders replayed into a new master after a failover, by what it found")
                .register(meters);
    }

    static String watcherName(String instanceId) {
        byte[] token = new byte[6];
        new SecureRandom().nextBytes(token);
        String prefix = instanceId.length() > 170 ? instanceId.substring(0, 170) : instanceId;
        return prefix + "/" + HexFormat.of().formatHex(token);
    }

    /** Runs one check; returns whether this instance saw the masters change since its last check. */
    boolean check() {
        String now = masters.get();
        failovers.heartbeat(watcher);
        String before = lastSeen;
        if (before == null) {
            // At start: a switch while this instance was down is recorded, and there is nothing of ours to replay.
            Optional<String> recorded = failovers.recordedMasters();
            if (recorded.isPresent() && !recorded.get().equals(now)) {
                // This process accepted nothing before: its replay is empty, and says so. A predecessor that died
                // within the last moments is expected too, and never replays: what it accepted nobody can know.
                failovers.recordReplay(recordSwitch(recorded.get(), now).generation(), watcher, List.of(), clock.instant());
            } else {
                failovers.begin(now, clock.instant());
            }
            lastSeen = now;
            return false;
        }
        if (before.equals(now) && unreplayed.isEmpty()) {
            followUp(now);
            return false;
        }
        replayDue = true;
        if (!before.equals(now)) {
            unreplayed.add(recordSwitch(before, now).generation());
        }
        List<FailoverReplay.Replayed> found = replay.get();
        // One replay answers every switch seen since the last one that succeeded (a Redis Cluster may first drop
        // the dead master, then add the promoted replica: two switches, the first with part of the slots unserved).
        long latest = unreplayed.stream().mapToLong(Long::longValue).max().orElseThrow();
        for (long generation : unreplayed) {
            // The counts once, with the latest: the audit adds them up over every failover a sale saw.
            failovers.recordReplay(generation, watcher, generation == latest ? found : List.of(), clock.instant());
        }
        unreplayed.clear();
        // Only now: a replay cut short (the new master not answering yet) runs again at the next check.
        lastSeen = now;
        replayDue = false;
        report(before, now, found);
        followUps.clear();
        long switchedAt = nanoTime.getAsLong();
        FOLLOW_UPS.forEach(after -> followUps.addLast(switchedAt + after.toNanos()));
        followUpGeneration = latest;
        return true;
    }

    /**
     * A command the old master had received before the switch can still be answered after it: a master paused (not
     * dead) takes it up when it resumes, before the Sentinels demote it, and the instance journals the order then,
     * after its replay ran. Redisson gives up on a command after its timeout and retries, so such answers stop coming
     * within seconds: the journal is replayed again a few times until they have.
     */
    private void followUp(String masters) {
        Long due = followUps.peekFirst();
        if (due == null || nanoTime.getAsLong() - due < 0) {
            return;
        }
        List<FailoverReplay.Replayed> found = replay.get();
        failovers.recordReplay(followUpGeneration, watcher, found, clock.instant());
        followUps.pollFirst();
        if (found.stream().anyMatch(voucher -> voucher.reapplied() > 0 || voucher.lost() > 0 || voucher.resold() > 0)) {
            report(masters, masters, found);
        }
    }

    private RedisFailovers.Switch recordSwitch(String before, String now) {
        Instant at = clock.instant();
        RedisFailovers.Switch recorded = failovers.switchTo(now, at, instanceId, alive);
        if (recorded.recordedHere()) {
            failoversSeen.increment();
            log.error("Redis failed over: the master was {} and is now {}. Replication is asynchronous: orders the old "
                    + "master accepted and had not passed on are not in the new one. Each instance replays what it "
                    + "accepted in the last moments; the audit of every sale that existed at {} says what was put back "
                    + "and what was lost.", before, now, at);
        }
        return recorded;
    }

    private void report(String before, String now, List<FailoverReplay.Replayed> found) {
        int present = 0;
        int back = 0;
        int gone = 0;
        int resold = 0;
        for (FailoverReplay.Replayed voucher : found) {
            present += voucher.present();
            back += voucher.reapplied();
            gone += voucher.lost();
            resold += voucher.resold();
            if (voucher.lost() > 0 || voucher.resold() > 0) {
                log.error("Redis failed over ({} -> {}): voucher {}: {} accepted orders could not be put back into the "
                        + "new master (sold out or bought again since): {}; {} in MySQL whose unit it sold again.",
                        before, now, voucher.voucherId(), voucher.lost(), voucher.lostOrderIds(), voucher.resold());
            }
        }
        reapplied.increment(back);
        lost.increment(gone);
        log.warn("Redis failed over ({} -> {}): replayed the orders this instance accepted in the last moments: "
                + "{} present in the new master, {} re-applied, {} lost, {} resold.", before, now, present, back, gone, resold);
    }

    @Override
    protected void runOnce() {
        try {
            check();
        } catch (RuntimeException e) {
            if (replayDue) {
                log.warn("Redis failed over and the replay into the new master failed; tried again at the next check: {}",
                        e.toString());
            } else {
                log.debug("Redis failover check skipped this time: {}", e.toString());
            }
        }
    }

    /** The first check runs before the instance takes requests, so a failover during downtime is on record first. */
    @Override
    public void start() {
        runQuietly();
        super.start();
    }

    /** A watcher that stops on purpose is no longer expected to replay (its consumers drained before it stops). */
    @Override
    public synchronized void stop() {
        super.stop();
        try {
            failovers.leave(watcher);
        } catch (RuntimeException e) {
            log.debug("Could not leave the Redis watchers: {}", e.toString());
        }
    }
}
