package dev.seckill.lab;

import java.util.concurrent.TimeUnit;

import org.redisson.api.RFencedLock;
import org.redisson.api.RLock;
import org.redisson.api.RedissonClient;

/**
 * The Redisson locks of articles 000, 002 and 004: the RLock with its watchdog, the same with a fixed lease (and so
 * no watchdog), the MultiLock over three nodes, and the RFencedLock whose token the stock checks. Redisson waits for
 * a released lock through pub/sub instead of spinning.
 */
final class RedissonLocks {

    /** Redisson's "no lease": the watchdog renews the lock while the holder's process lives. */
    private static final long WATCHDOG = -1;

    private final LabSettings settings;

    RedissonLocks(LabSettings settings) {
        this.settings = settings;
    }

    LabLock lock(Strategy strategy, LabProcess process, String name) {
        long lease = settings.lease().toMillis();
        return switch (strategy) {
            case REDISSON -> plain(process.first().getLock(name), WATCHDOG);
            case REDISSON_LEASE -> plain(process.first().getLock(name), lease);
            case REDISSON_MULTILOCK -> plain(multiLock(process, name), WATCHDOG);
            case REDISSON_FENCED -> fenced(process.first().getFencedLock(name), lease);
            default -> throw new IllegalArgumentException(strategy + " is no Redisson lock");
        };
    }

    /** One lock of the same name on every node: held only while all of them are (002 "MutiLock"). */
    private static RLock multiLock(LabProcess process, String name) {
        RedissonClient first = process.first();
        return first.getMultiLock(process.all().stream().map(node -> node.getLock(name)).toArray(RLock[]::new));
    }

    private static LabLock plain(RLock lock, long lease) {
        return wait -> lock.tryLock(wait.toMillis(), lease, TimeUnit.MILLISECONDS) ? () -> unlock(lock) : null;
    }

    private static LabLock fenced(RFencedLock lock, long lease) {
        return wait -> {
            Long token = lock.tryLockAndGetToken(wait.toMillis(), lease, TimeUnit.MILLISECONDS);
            if (token == null) {
                return null;
            }
            return new Hold() {
                @Override
                public long token() {
                    return token;
                }

                @Override
                public Release release() {
                    return unlock(lock);
                }
            };
        };
    }

    /** Redisson refuses to unlock a lock this thread no longer holds (its lease ran out): nothing is deleted. */
    private static Hold.Release unlock(RLock lock) {
        try {
            lock.unlock();
            return Hold.Release.RELEASED;
        } catch (IllegalMonitorStateException e) {
            return Hold.Release.NOT_HELD;
        }
    }
}
