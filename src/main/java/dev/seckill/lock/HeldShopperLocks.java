package dev.seckill.lock;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

import org.redisson.api.RFuture;
import org.redisson.api.RLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The shopper locks a consumer holds for one batch, taken and released together in one round of
 * pipelined calls (one lock per order would cost a round trip each). Closing releases them all.
 */
public final class HeldShopperLocks implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(HeldShopperLocks.class);

    private final Map<Long, RLock> held;
    private final long owner;
    private final LockMeters meters;

    HeldShopperLocks(Map<Long, RLock> held, long owner, LockMeters meters) {
        this.held = held;
        this.owner = owner;
        this.meters = meters;
    }

    /** The shoppers whose lock this batch holds; the others are being handled elsewhere right now. */
    public Set<Long> shoppers() {
        return new HashSet<>(held.keySet());
    }

    @Override
    public void close() {
        List<CompletableFuture<Void>> releases = new ArrayList<>(held.size());
        for (RLock lock : held.values()) {
            RFuture<Void> release = lock.unlockAsync(owner);
            releases.add(release.toCompletableFuture().exceptionally(e -> {
                meters.expiredBeforeRelease();
                log.warn("Lock {} expired before it was released: this process stalled past seckill.lock.watchdog-timeout",
                        lock.getName());
                return null;
            }));
        }
        CompletableFuture.allOf(releases.toArray(CompletableFuture[]::new)).join();
    }
}
