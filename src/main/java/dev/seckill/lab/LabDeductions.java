package dev.seckill.lab;

import java.time.Duration;
import java.util.List;

import dev.seckill.platform.LuaScript;
import org.redisson.api.RBucket;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * One deduction of a run's stock, the articles' way: take the lock, read the stock, if positive write it back one
 * lower, release the lock. The read-modify-write is on purpose: only the lock stands between two buyers and the
 * same unit. The critical section counts its own occupants, and every attempt's outcome lands in the run's stats.
 */
@LabEnabled
@Component
public class LabDeductions {

    private static final Logger log = LoggerFactory.getLogger(LabDeductions.class);

    /** The answer to one attempt; its wait for the lock in microseconds. */
    public record Deduction(String outcome, long waitMicros) {
    }

    private final LabRuns runs;
    private final LabProcess process;
    private final LabSettings settings;
    private final SetnxLocks setnxLocks;
    private final RedissonLocks redissonLocks;
    private final LuaScript enter;
    private final LuaScript record;
    private final LuaScript fencedRead;
    private final LuaScript fencedWrite;
    /** Article 004's {@code synchronized (this)}: one monitor per instance, which is exactly its mistake. */
    private final Object jvmMonitor = new Object();

    LabDeductions(LabRuns runs, LabProcess process, LabSettings settings, SetnxLocks setnxLocks,
            RedissonLocks redissonLocks) {
        this.runs = runs;
        this.process = process;
        this.settings = settings;
        this.setnxLocks = setnxLocks;
        this.redissonLocks = redissonLocks;
        RedissonClient first = process.first();
        this.enter = new LuaScript(first, "lab/enter.lua");
        this.record = new LuaScript(first, "lab/record.lua");
        this.fencedRead = new LuaScript(first, "lab/fenced-read.lua");
        this.fencedWrite = new LuaScript(first, "lab/fenced-write.lua");
    }

    public Deduction deduct(String runId) throws InterruptedException {
        LabRun run = runs.find(runId);
        long startMs = System.currentTimeMillis();
        long attempt = process.first().getAtomicLong(run.keys().attempts()).incrementAndGet();
        Attempt result;
        try {
            result = switch (run.strategy()) {
                case NONE -> section(run, null, false);
                case JVM_SYNCHRONIZED -> synchronizedSection(run);
                default -> locked(run, attempt);
            };
        } catch (RuntimeException e) {
            // a stopped node, a timeout: counted, and the load goes on
            log.debug("Lab run {}: attempt {} failed: {}", run.id(), attempt, e.toString());
            result = new Attempt(Outcome.ERROR, 0, null);
        }
        record.evalLong(List.of(run.keys().stats()), result.outcome().field(), result.waitMicros(), startMs,
                System.currentTimeMillis(), result.release() == null ? "" : result.release().name());
        return new Deduction(result.outcome().id(), result.waitMicros());
    }

    private record Attempt(Outcome outcome, long waitMicros, Hold.Release release) {
    }

    private Attempt synchronizedSection(LabRun run) throws InterruptedException {
        long start = System.nanoTime();
        synchronized (jvmMonitor) {
            Attempt inside = section(run, null, false);
            return new Attempt(inside.outcome(), (System.nanoTime() - start) / 1000, null);
        }
    }

    private Attempt locked(LabRun run, long attempt) throws InterruptedException {
        // A Redisson holder's watchdog runs in its process: to die, the holder needs a process of its own before it
        // asks for the lock, so it is chosen by its attempt's number. Any other holder is chosen once it has the lock
        // (the crash-at-th to take it): under 200 spinning contenders the crash-at-th attempt may get it last.
        boolean redissonDoomed = run.fault().crashes() && run.strategy().redisson() && attempt == settings.crashAt();
        LabProcess holder = redissonDoomed ? LabProcess.start(settings) : process;
        try {
            LabLock lock = run.strategy().redisson()
                    ? redissonLocks.lock(run.strategy(), holder, run.keys().lock())
                    : setnxLocks.lock(run.strategy(), holder.first(), run.keys().lock());
            long start = System.nanoTime();
            Hold hold = lock.acquire(settings.lockWait());
            long waited = (System.nanoTime() - start) / 1000;
            if (hold == null) {
                return new Attempt(Outcome.BUSY, waited, null);
            }
            boolean doomed = redissonDoomed || run.fault().crashes() && !run.strategy().redisson()
                    && process.first().getAtomicLong(run.keys().taken()).incrementAndGet() == settings.crashAt();
            if (doomed && run.fault() == Fault.CRASH_BEFORE_EXPIRY) {
                return new Attempt(Outcome.CRASHED, waited, null);
            }
            Attempt inside;
            try {
                hold.afterAcquire();
                inside = section(run, hold, doomed);
            } catch (RuntimeException failed) {
                // A Redis call that failed is no fault of the run's: release, so that only the faults leave locks
                releaseQuietly(hold);
                throw failed;
            }
            Hold.Release release = inside.outcome() == Outcome.CRASHED ? null : hold.release();
            return new Attempt(inside.outcome(), waited, release);
        } finally {
            if (holder != process) {
                holder.die();
            }
        }
    }

    private static void releaseQuietly(Hold hold) {
        try {
            hold.release();
        } catch (RuntimeException e) {
            log.debug("Lab: could not release after a failure: {}", e.toString());
        }
    }

    /**
     * The critical section, whose occupants are counted by the section itself. {@code doomed}: the holder dies after
     * reading, without writing or releasing (a process that died is no longer inside, so it leaves the count).
     */
    private Attempt section(LabRun run, Hold hold, boolean doomed) throws InterruptedException {
        LabKeys keys = run.keys();
        List<Object> entered = enter.evalList(List.of(keys.holders(), keys.stats()));
        long number = (Long) entered.get(1);
        try {
            long token = hold == null ? 0 : hold.token();
            long stock = read(run, token);
            if (doomed) {
                return new Attempt(Outcome.CRASHED, 0, null);
            }
            if (stock < 0) {
                return new Attempt(Outcome.FENCED, 0, null);
            }
            if (stock == 0) {
                return new Attempt(Outcome.SOLD_OUT, 0, null);
            }
            sleep(settings.work());
            if (run.fault() == Fault.PAUSE && number % settings.pauseEvery() == 0) {
                sleep(settings.pause());
            }
            return new Attempt(write(run, token, stock - 1) ? Outcome.DEDUCTED : Outcome.FENCED, 0, null);
        } finally {
            process.first().getAtomicLong(keys.holders()).decrementAndGet();
        }
    }

    /** The stock, or -1 when the fence refused the read. */
    private long read(LabRun run, long token) {
        if (run.strategy() == Strategy.REDISSON_FENCED) {
            return fencedRead.evalLong(List.of(run.keys().stock(), run.keys().fence()), token);
        }
        return Long.parseLong(stock(run).get());
    }

    private boolean write(LabRun run, long token, long stock) {
        if (run.strategy() == Strategy.REDISSON_FENCED) {
            return fencedWrite.evalLong(List.of(run.keys().stock(), run.keys().fence()), token, stock) == 1;
        }
        stock(run).set(Long.toString(stock));
        return true;
    }

    private RBucket<String> stock(LabRun run) {
        return process.first().getBucket(run.keys().stock(), StringCodec.INSTANCE);
    }

    private static void sleep(Duration duration) throws InterruptedException {
        if (!duration.isZero()) {
            Thread.sleep(duration.toMillis());
        }
    }
}
