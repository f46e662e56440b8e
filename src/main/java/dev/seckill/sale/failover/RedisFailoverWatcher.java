package dev.seckill.sale.failover;

import dev.seckill.sale.durability.DurabilitySettings;

import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

import dev.seckill.InstanceIdentity;
import dev.seckill.order.OrdersByVoucher;
import dev.seckill.platform.PeriodicTask;
import dev.seckill.platform.ShutdownOrder;
import dev.seckill.voucher.VoucherStock;
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
 *       so ({@link RedisFailovers.Report}); an order of a sale started afresh since (a stock reset that deleted the
 *       orders) is left out;</li>
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
    /** What this instance's journal holds now ({@link FailoverReplay#journaled}). */
    private final Supplier<AcceptedOrdersJournal.Snapshot> journaled;
    /** Replays orders into the master there is now ({@link FailoverReplay#replay}). */
    private final Function<AcceptedOrdersJournal.Snapshot, List<FailoverReplay.Replayed>> replay;
    private final Clock clock;
    private final LongSupplier nanoTime;
    private final String instanceId;
    /** This process: a restarted instance with the same id did not journal what its predecessor accepted. */
    private final String watcher;
    private final Duration alive;
    private final Counter failoversSeen;
    private final Counter reapplied;
    private final Counter lost;
    /** The masters this instance last wrote to and replayed for; null until the first check that succeeded. */
    private String lastSeen;
    /** The latest failover (topology generation) this instance has answered with its replay. */
    private long lastReplayed;
    /** The journal as it was when a switch was seen, kept until a replay of it succeeds (however long that takes). */
    private AcceptedOrdersJournal.Snapshot owed;
    /** When (monotonic nanos) the follow-ups of the last failover are due, and the failover they belong to. */
    private final Deque<Long> followUps = new ArrayDeque<>();
    private long followUpGeneration;

    @Autowired
    RedisFailoverWatcher(RedissonClient redisson, RedisFailovers failovers, FailoverReplay replay, OrdersByVoucher orders,
            VoucherStock vouchers, DurabilitySettings settings, Clock clock, MeterRegistry meters,
            InstanceIdentity identity) {
        this(new RedisMasters(redisson)::current, failovers, replay::journaled,
                snapshot -> replay.replay(snapshot, orders::inMySql, vouchers::saleGeneration),
                aliveFor(settings, replay.journalWindow()), settings, clock, System::nanoTime, meters, identity);
    }

    RedisFailoverWatcher(Supplier<String> masters, RedisFailovers failovers,
            Supplier<AcceptedOrdersJournal.Snapshot> journaled,
            Function<AcceptedOrdersJournal.Snapshot, List<FailoverReplay.Replayed>> replay, Duration alive,
            DurabilitySettings settings, Clock clock, LongSupplier nanoTime, MeterRegistry meters,
            InstanceIdentity identity) {
        super("redis-failover-watcher", settings.epochCheck(), ShutdownOrder.REDIS_EPOCH_CHECK);
        this.masters = masters;
        this.failovers = failovers;
        this.journaled = journaled;
        this.replay = replay;
        this.alive = alive;
        this.clock = clock;
        this.nanoTime = nanoTime;
        this.instanceId = identity.instanceId();
        this.watcher = watcherName(instanceId);
        this.failoversSeen = Counter.builder("seckill.redis.failovers")
                .description("Redis failovers (a new master) this instance was the first to record").register(meters);
        this.reapplied = Counter.builder("seckill.redis.failover.replayed").tag("outcome", "reapplied")
                .description("Accepted orders replayed into a new master after a failover, by what it found")
                .register(meters);
        this.lost = Counter.builder("seckill.redis.failover.replayed").tag("outcome", "lost")
                .description("Accepted orders replayed into a new master after a failover, by what it found")
                .register(meters);
    }

    /**
     * How long a silent instance is still expected to replay: as long as its journal reaches back. One that died that
     * recently took with it what it alone knew, and the audit must not call a sale whole without it; missed beats of a
     * live one (a GC pause, a slow check) must not drop it either.
     */
    static Duration aliveFor(DurabilitySettings settings, Duration journalWindow) {
        Duration beats = settings.epochCheck().multipliedBy(5).plusSeconds(5);
        return beats.compareTo(journalWindow) > 0 ? beats : journalWindow;
    }

    static String watcherName(String instanceId) {
        byte[] token = new byte[6];
        new SecureRandom().nextBytes(token);
        String prefix = instanceId.length() > 170 ? instanceId.substring(0, 170) : instanceId;
        return prefix + "/" + HexFormat.of().formatHex(token);
    }

    /**
     * Runs one check; returns whether it replayed for a failover. Synchronized: the last check of {@link #stop} must
     * not overlap the timer's.
     */
    synchronized boolean check() {
        String now = masters.get();
        failovers.heartbeat(watcher);
        if (lastSeen == null) {
            // The first check: a switch while this instance was down (or before this check) is recorded, and this
            // process answers for the failover MySQL is at with what it journaled so far (nothing, at a start).
            Optional<String> recorded = failovers.recordedMasters();
            if (recorded.isEmpty()) {
                failovers.begin(now, clock.instant());
            } else if (!recorded.get().equals(now)) {
                recordSwitch(recorded.get(), now);
            }
            lastReplayed = failovers.currentGeneration() - 1;
            owed = journaled.get();
            replayAndRecord(now, now);
            return false;
        }
        boolean switched = !now.equals(lastSeen);
        if (switched && owed == null) {
            owed = journaled.get();
        }
        if (switched) {
            recordSwitch(lastSeen, now);
        }
        if (owed != null || failovers.currentGeneration() > lastReplayed) {
            // A switch this instance saw, a replay that failed before, or a failover another instance recorded that
            // this one's view skipped (a Redis Cluster's intermediate set of masters).
            String before = lastSeen;
            replayAndRecord(before, now);
            return true;
        }
        followUp(now);
        return false;
    }

    /**
     * Replays what was owed and what the journal holds now, and answers every failover since the last one this
     * instance answered: the counts once, with the latest (the audit adds them up over the failovers a sale saw), and
     * "finished" for each, unless the journal's size bound dropped orders of the window (then nobody can know).
     */
    private void replayAndRecord(String before, String now) {
        AcceptedOrdersJournal.Snapshot orders = owed == null ? journaled.get() : owed.and(journaled.get());
        List<FailoverReplay.Replayed> found = replay.apply(orders);
        long current = failovers.currentGeneration();
        // Generation 0 is the masters first recorded: no failover to answer for.
        for (long generation = Math.max(lastReplayed + 1, 1); generation <= current; generation++) {
            failovers.recordReplay(generation, watcher, generation == current ? found : List.of(), orders.complete(),
                    clock.instant());
        }
        boolean wasFailover = current > lastReplayed && lastSeen != null;
        lastReplayed = current;
        owed = null;
        lastSeen = now;
        if (!orders.complete()) {
            log.error("Redis failed over and this instance's journal had dropped orders of its window (more than "
                    + "seckill.redis.failover.journal-max-orders): the audit cannot call the sales of that moment whole.");
        }
        if (wasFailover) {
            report(before, now, found);
            followUps.clear();
            long replayedAt = nanoTime.getAsLong();
            FOLLOW_UPS.forEach(after -> followUps.addLast(replayedAt + after.toNanos()));
            followUpGeneration = current;
        }
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
        AcceptedOrdersJournal.Snapshot orders = journaled.get();
        List<FailoverReplay.Replayed> found = replay.apply(orders);
        failovers.recordReplay(followUpGeneration, watcher, found, orders.complete(), clock.instant());
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
        int dropped = 0;
        int voided = 0;
        for (FailoverReplay.Replayed voucher : found) {
            dropped += voucher.dropped();
            voided += voucher.voided();
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
                + "{} present in the new master, {} re-applied, {} lost, {} resold; {} answered order-unconfirmed that "
                + "could not come back; {} of a sale started afresh since, left out.", before, now, present, back, gone,
                resold, dropped, voided);
    }

    @Override
    protected void runOnce() {
        try {
            check();
        } catch (RuntimeException e) {
            if (owed != null) {
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

    /**
     * A watcher that stops on purpose checks once more (a switch it has not answered yet is answered now), then is no
     * longer expected to replay.
     */
    @Override
    public synchronized void stop() {
        super.stop();
        runOnce();
        try {
            failovers.leave(watcher);
        } catch (RuntimeException e) {
            log.debug("Could not leave the Redis watchers: {}", e.toString());
        }
    }
}
