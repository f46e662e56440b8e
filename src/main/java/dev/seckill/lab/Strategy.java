package dev.seckill.lab;

import java.util.Arrays;
import java.util.EnumSet;
import java.util.Set;

/**
 * The locks the articles this platform grew from (docs/lock-lab.md names them) argue about, in their order. The first five are the articles'
 * mistakes, kept wrong on purpose; the article that makes (or answers) each is named.
 */
public enum Strategy {
    /** No lock at all: the articles' starting point, oversells under any concurrency (004). */
    NONE("none", "004", EnumSet.noneOf(Fault.class)),
    /** {@code synchronized (this)} around the deduction: holds on one JVM, oversells behind Nginx with two (004). */
    JVM_SYNCHRONIZED("jvm-synchronized", "004", EnumSet.noneOf(Fault.class)),
    /** SETNX, then DEL: a holder that dies never deletes, and the lock stays forever (001 "方案1", 004). */
    SETNX_DEL("setnx-del", "001, 004", EnumSet.of(Fault.CRASH_HOLDING)),
    /** SETNX, then EXPIRE in a second command: a crash between the two leaves a lock without expiry (001 "方案2", 003). */
    SETNX_THEN_EXPIRE("setnx-then-expire", "001, 003", EnumSet.of(Fault.CRASH_BEFORE_EXPIRY, Fault.CRASH_HOLDING, Fault.PAUSE)),
    /** SET NX PX, then a plain DEL: a holder that outlived its lease deletes the next holder's lock (001 "方案3", 003, 004). */
    SET_NX_PX("set-nx-px", "001, 003, 004", EnumSet.of(Fault.CRASH_HOLDING, Fault.PAUSE)),
    /** SET NX PX with a random value, released by the articles' Lua compare-and-delete (001 "方案4", 003). */
    SET_NX_PX_OWNER_LUA("set-nx-px-owner-lua", "001, 003", EnumSet.of(Fault.CRASH_HOLDING, Fault.PAUSE)),
    /** Redisson's RLock without a lease: the watchdog renews it while the holder's process lives (000, 002, 004). */
    REDISSON("redisson", "000, 002, 004", EnumSet.of(Fault.CRASH_HOLDING, Fault.PAUSE)),
    /** Redisson's RLock with a fixed lease and so no watchdog: the lease can run out under a slow holder (002). */
    REDISSON_LEASE("redisson-lease", "002", EnumSet.of(Fault.CRASH_HOLDING, Fault.PAUSE)),
    /** Redisson's MultiLock over three independent nodes, watchdog on: held only when all three are (002). */
    REDISSON_MULTILOCK("redisson-multilock", "002", EnumSet.of(Fault.NODE_DOWN, Fault.CRASH_HOLDING, Fault.PAUSE)),
    /**
     * Redisson's RFencedLock with the fixed lease: the lock can still run out, but the stock refuses a read or a
     * write whose token is older than the last one it saw (the answer to 002's "没有锁住" and 003's 问题一).
     */
    REDISSON_FENCED("redisson-fenced", "002, 003", EnumSet.of(Fault.CRASH_HOLDING, Fault.PAUSE));

    private final String id;
    private final String articles;
    private final Set<Fault> faults;

    Strategy(String id, String articles, Set<Fault> faults) {
        this.id = id;
        this.articles = articles;
        this.faults = faults;
    }

    public String id() {
        return id;
    }

    /** The articles (by their number in docs/lock-lab.md) that argue about this lock. */
    public String articles() {
        return articles;
    }

    /** The faults a run of this strategy may switch on, besides {@link Fault#NONE}. */
    public Set<Fault> faults() {
        return faults;
    }

    public boolean takes(Fault fault) {
        return fault == Fault.NONE || faults.contains(fault);
    }

    /** The strategies that lock with Redisson, whose watchdog and connections live in the holder's process. */
    boolean redisson() {
        return ordinal() >= REDISSON.ordinal();
    }

    public static Strategy of(String id) {
        return Arrays.stream(values()).filter(s -> s.id.equals(id)).findFirst()
                .orElseThrow(() -> new LabException(LabException.Problem.UNKNOWN_STRATEGY, "No strategy '" + id
                        + "'; there are " + Arrays.stream(values()).map(Strategy::id).toList()));
    }
}
