package dev.seckill.lab;

import java.util.Locale;
import java.util.Map;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * What the articles say each run of the lock lab should show, with the article that says it, and the verdict that
 * compares a run's numbers with it: {@code agrees} or {@code DISAGREES}, computed, never written by hand.
 */
final class LockLabExpectations {

    /** What a run is expected to show, and the numbers that show it. */
    enum Expectation {
        /** Lost updates or oversold units. */
        OVERSELL(row -> row.lostUpdates() > 0 || row.oversold() > 0),
        /** No overlap, no lost update, not stuck. */
        HOLDS(row -> row.clean() && !"forever".equals(row.stuck())),
        /** As {@link #HOLDS}: the dead holder's lock expired. */
        RECOVERS(row -> row.clean() && !"forever".equals(row.stuck())),
        /** The lock left without expiry. */
        STUCK(row -> "forever".equals(row.stuck())),
        /** Overlaps, and another holder's lock deleted. */
        DELETES(row -> row.overlaps() > 0 && row.deletedAnothers() > 0),
        /** Overlaps, but no other holder's lock deleted. */
        OVERLAP(row -> row.overlaps() > 0 && row.deletedAnothers() == 0),
        /** No lost update, nothing oversold, stale holders refused. */
        FENCED(row -> row.lostUpdates() == 0 && row.oversold() == 0 && row.fenced() > 0),
        /** Nothing sold, no overlap. */
        CLOSED(row -> row.deducted() == 0 && row.overlaps() == 0);

        private final Predicate<LockLabRow> shown;

        Expectation(Predicate<LockLabRow> shown) {
            this.shown = shown;
        }

        /** As the report names it. */
        String word() {
            return name().toLowerCase(Locale.ROOT);
        }

        boolean shownBy(LockLabRow row) {
            return shown.test(row);
        }
    }

    /** A run's expectation, the articles (by their number in docs/lock-lab.md) it comes from, and why. */
    record Expected(Expectation expectation, String articles, String why) {

        /** {@code agrees} or {@code DISAGREES}. */
        String verdict(LockLabRow row) {
            return expectation.shownBy(row) ? "agrees" : "DISAGREES";
        }
    }

    static final Expected UNWRITTEN = new Expected(Expectation.HOLDS, "-", "No expectation written for this run.");

    /**
     * {@code strategy/fault|expectation|articles|why}, a run a line (a {@code \} at its end continues it). The texts are the
     * articles' case for each run and docs/lock-lab.md quotes them as they are.
     */
    private static final String TABLE = """
            none/none|oversell|004|Nothing stands between two requests: both read the same stock and both write it \
            back one lower, so units are sold twice. 004's starting point.
            jvm-synchronized/none|oversell|004|The `synchronized` block serializes the requests of one JVM only. \
            Nginx spreads the load over two instances, each with its own monitor, so the two read-modify-writes \
            interleave: 004's JMeter run, where both servers handed out the same stock values.
            setnx-del/none|holds|001 (方案1), 004|SETNX excludes as long as every holder lives to DEL its lock: no \
            overlap and no oversell without a fault.
            setnx-del/crash-holding|stuck|001 (方案1), 004 (①)|The holder dies before its DEL and the lock has no \
            expiry: it stays forever, and every later request waits out its lock-wait and gives up. 001: \
            "则锁一直无法自动释放。从而导致死锁".
            setnx-then-expire/none|holds|001 (方案2), 003 (第二层)|Without a crash the two commands do what one would: \
            the lock excludes and expires.
            setnx-then-expire/crash-before-expiry|stuck|001 (方案2), 003 (第二层), 004 (②)|The holder dies after SETNX \
            and before EXPIRE: the lock has no expiry and nobody will delete it. 001: "如果setnx之后,setex \
            之前服务挂掉,会陷入死锁"; 003: "setnx lock true 和 expire lock 30 命令是非原子的".
            setnx-then-expire/crash-holding|recovers|001 (方案2)|A holder that dies after its EXPIRE leaves a lock \
            that runs out after the lease; the sale resumes.
            setnx-then-expire/pause|deletes|003 (第四层), 004 (③)|Once it has its expiry this lock is SET NX PX with \
            extra steps, and it fails the same way: the lease runs out under the paused holder, the next one enters, \
            and the paused one's plain DEL removes the next holder's lock.
            set-nx-px/none|holds|001 (方案3), 003 (第三层)|One atomic SET NX PX: it excludes, and a dead holder's lock \
            expires.
            set-nx-px/crash-holding|recovers|001 (方案3), 003 (第三层)|The dead holder's lock expires after the lease, as \
            001's 方案3 promises.
            set-nx-px/pause|deletes|003 (第四层 问题一/问题二), 004 (③)|The holder pauses longer than the lease: its lock \
            expires, another request takes the lock and enters beside it (an overlap, 问题一), and when the paused one \
            wakes its plain DEL deletes the other's lock (问题二: "自己加的锁被别人释放了"), which lets a third one in. The stale \
            write loses updates.
            set-nx-px-owner-lua/none|holds|001 (方案4), 003|The owner check changes nothing when nobody outlives the \
            lease.
            set-nx-px-owner-lua/crash-holding|recovers|001 (方案4)|The dead holder's lock expires after the lease.
            set-nx-px-owner-lua/pause|overlap|001 (方案4), 003 (问题一), 002 (超时释放)|The compare-and-delete keeps the \
            paused holder from deleting the next holder's lock (问题二 solved), but not from working on after its lease \
            ran out: two holders are still inside at once (003's 问题一; 002: "虽采用了 lua 表达式防止删锁时误删别人的锁,但毕竟没有锁住"). The \
            articles call this version the fix; it fixes the delete, not the overlap.
            redisson/none|holds|004, 000, 002|Redisson's RLock: Lua acquire and release, waiting through pub/sub.
            redisson/pause|holds|000, 002, 004|No lease: the watchdog renews the lock every third of its timeout \
            while the holder's process lives, so a pause longer than the timeout does not lose it. 004: "Redisson \
            提供的分布式锁是支持锁自动续期的". The price is that everyone waits out the pause (busy attempts, lower req/s). A \
            stop-the-world pause of the whole JVM longer than the timeout would stop the watchdog too: the lab's \
            pause stalls one thread.
            redisson/crash-holding|recovers|002 (WatchDog)|The holder's process (its own Redisson clients) is shut \
            down: nobody renews its lock, which expires one watchdog timeout later. 002: "若线程出现宕机,则不会续约,等到时间后自然释放锁".
            redisson-lease/none|holds|000, 002|A fixed lease (000's `lock(2,3,SECOND)`, 002's \
            `tryLock(1,10,SECONDS)`) is fine while holders finish in time.
            redisson-lease/crash-holding|recovers|000, 002|The dead holder's lease runs out.
            redisson-lease/pause|overlap|002 (超时释放)|With a lease there is no watchdog: the lease runs out under the \
            paused holder and another enters. Redisson refuses the late unlock (no other lock deleted), but the \
            overlap has happened.
            redisson-multilock/none|holds|002 (MutiLock)|One lock per node, all three needed.
            redisson-multilock/pause|holds|002|Watchdog on all three locks: the pause does not lose them.
            redisson-multilock/crash-holding|recovers|002|The dead holder's three locks expire one watchdog timeout \
            later.
            redisson-multilock/node-down|closed|002 (MutiLock)|002: "只要有一个节点拿不到锁,都不算加锁成功": with one of three nodes \
            stopped no attempt gets the MultiLock, so it never lets two in, and never sells either: safe and \
            unavailable. (A majority lock, Redisson's deprecated RedLock, would go on with two of three.)
            redisson-fenced/none|holds|002, 003|The RFencedLock with the fixed lease, and the stock checking its \
            token.
            redisson-fenced/crash-holding|recovers|002, 003|The dead holder's lease runs out; its token is never \
            seen again.
            redisson-fenced/pause|fenced|002 (超时释放), 003 (问题一)|The lease still runs out under the paused holder \
            (overlaps), but each lock comes with a growing token, and the stock refuses a read or write whose token \
            is older than one it has seen: the stale holder's write is refused, so no update is lost. This is the \
            answer to the overlap the articles leave open; it needs the storage to check the token.
            """;

    private static final Map<String, Expected> BY_RUN = TABLE.lines().map(line -> line.split("\\|", 4))
            .collect(Collectors.toUnmodifiableMap(run -> run[0], run -> new Expected(
                    Expectation.valueOf(run[1].toUpperCase(Locale.ROOT)), run[2], run[3])));

    private LockLabExpectations() {
    }

    /** What is expected of {@code strategy/fault}, or {@link #UNWRITTEN}. */
    static Expected of(String run) {
        return BY_RUN.getOrDefault(run, UNWRITTEN);
    }
}
