package dev.seckill.id;

import java.time.Clock;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.OptionalLong;
import java.util.function.LongSupplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Takes a worker number for one owner: a free or expired row of {@code id_worker_lease}, its high-water
 * mark written before the generator issues anything on it. Taking a number is apart from keeping it
 * ({@link WorkerLeaseKeeper}): the keeper needs it at start-up and again whenever a renewal finds its
 * number gone.
 */
final class WorkerNumberClaimer {

    /** Under the keeper's name: all of the lease's messages stay under one logger, whichever class writes them. */
    private static final Logger log = LoggerFactory.getLogger(WorkerLeaseKeeper.class);
    /** Candidates read per attempt; one is picked at random so that instances starting together rarely race. */
    private static final int CANDIDATES = 32;
    private static final int CLAIM_ATTEMPTS = 5;

    private final WorkerLeaseTable table;
    private final IdGenerator ids;
    private final IdSettings settings;
    private final Clock clock;
    private final LongSupplier nanoTicker;
    private final String owner;

    WorkerNumberClaimer(WorkerLeaseTable table, IdGenerator ids, IdSettings settings, Clock clock,
            LongSupplier nanoTicker, String owner) {
        this.table = table;
        this.ids = ids;
        this.settings = settings;
        this.clock = clock;
        this.nanoTicker = nanoTicker;
        this.owner = owner;
    }

    /** Takes a free or expired worker number; false if every number stayed taken. */
    boolean claimAny() {
        for (int attempt = 0; attempt < CLAIM_ATTEMPTS; attempt++) {
            List<Integer> candidates = new ArrayList<>(table.takeable(CANDIDATES));
            if (candidates.isEmpty()) {
                return false;
            }
            Collections.shuffle(candidates);
            for (int workerId : candidates) {
                if (claim(workerId)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Takes this worker number if it is free or expired, and starts the generator on it. */
    boolean claim(int workerId) {
        // Taken before the database sets the expiry, so the lease ends here no later than there.
        long started = nanoTicker.getAsLong();
        OptionalLong previous = table.claim(workerId, owner, settings.leaseDuration());
        if (previous.isEmpty()) {
            return false;
        }
        // Write this holder's own high-water mark before issuing anything: from now on any later holder
        // starts after it, whatever happens to this instance.
        long floor = previous.getAsLong() + 1;
        long ceiling = Math.max(clock.millis(), floor) + settings.leaseDuration().toMillis();
        if (!table.renew(workerId, owner, settings.leaseDuration(), ceiling)) {
            return false;
        }
        ids.startLease(workerId, previous.getAsLong(), ceiling, started + settings.leaseDuration().toNanos());
        log.info("Id worker {} leased by {} (previous holder issued until {})", workerId, owner, previous.getAsLong());
        return true;
    }
}
