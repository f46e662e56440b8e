package dev.seckill.id;

import dev.seckill.InstanceIdentity;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.HexFormat;
import java.util.function.LongSupplier;

import dev.seckill.platform.ShutdownOrder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * Holds this instance's id worker number: takes one from {@code id_worker_lease} at start-up, renews it
 * every {@code seckill.ids.renew-every} on its own thread, gives it back on shutdown. A renewal that
 * finds the number taken by someone else (this instance's lease ran out, say during a long GC pause or
 * a MySQL outage) stops the generator at once and takes a new number; until it has one, ids are refused.
 * Taking a number is {@link WorkerNumberClaimer}'s, the renewal thread {@link LeaseRenewalThread}'s.
 */
@Component
class WorkerLeaseKeeper implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(WorkerLeaseKeeper.class);

    private final WorkerLeaseTable table;
    private final IdGenerator ids;
    private final IdSettings settings;
    private final LongSupplier nanoTicker;
    private final String owner;
    private final WorkerNumberClaimer claimer;
    private LeaseRenewalThread renewer;
    private volatile boolean running;
    /** Set by stop(): a renewal still running then must not take a new number nothing would release. */
    private volatile boolean stopping;

    @Autowired
    WorkerLeaseKeeper(WorkerLeaseTable table, IdGenerator ids, IdSettings settings, Clock clock,
            InstanceIdentity identity) {
        this(table, ids, settings, clock, System::nanoTime, ownerName(identity.instanceId()));
    }

    WorkerLeaseKeeper(WorkerLeaseTable table, IdGenerator ids, IdSettings settings, Clock clock,
            LongSupplier nanoTicker, String owner) {
        this.table = table;
        this.ids = ids;
        this.settings = settings;
        this.nanoTicker = nanoTicker;
        this.owner = owner;
        // Built here, not injected: it must claim for this keeper's owner, which exists only per keeper.
        this.claimer = new WorkerNumberClaimer(table, ids, settings, clock, nanoTicker, owner);
    }

    /**
     * The instance id says who holds a number (for people reading the table); the random token makes
     * the owner unique per process, so a restarted instance with the same id never mistakes its
     * predecessor's lease for its own.
     */
    static String ownerName(String instanceId) {
        byte[] token = new byte[8];
        new SecureRandom().nextBytes(token);
        String prefix = instanceId.length() > 150 ? instanceId.substring(0, 150) : instanceId;
        return prefix + "/" + HexFormat.of().formatHex(token);
    }

    @Override
    public void start() {
        // Fail the start-up rather than run an instance that can take no order.
        if (!claimAny()) {
            throw new IllegalStateException("No id worker number is free in id_worker_lease (all 1024 are leased)");
        }
        renewer = LeaseRenewalThread.start(this::renewOrReclaim, settings.renewEvery());
        running = true;
    }

    @Override
    public void stop() {
        stopping = true;
        running = false;
        if (renewer != null) {
            renewer.stop();
        }
        release();
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    /**
     * Below everything that issues ids (the web server's phases are higher), so a number is held before the
     * first request and given back only after the last one has been answered.
     */
    @Override
    public int getPhase() {
        return ShutdownOrder.ID_WORKER_LEASE;
    }

    /** One scheduled round; never throws, or the executor would silently stop scheduling it. */
    void renewOrReclaim() {
        try {
            long workerId = ids.workerId();
            if (workerId == IdGenerator.NO_WORKER) {
                if (!stopping) {
                    claimAny();
                }
                return;
            }
            long started = nanoTicker.getAsLong();
            long ceiling = ids.nextCeiling(settings.leaseDuration().toMillis());
            if (table.renew((int) workerId, owner, settings.leaseDuration(), ceiling)) {
                ids.renewed(workerId, ceiling, started + settings.leaseDuration().toNanos());
                return;
            }
            ids.stopLease(workerId);
            if (stopping) {
                return; // released by stop() meanwhile
            }
            log.error("Id worker {} was taken over by another instance after this instance's lease ran out; "
                    + "ids are refused until a new worker number is leased", workerId);
            claimAny();
        } catch (RuntimeException e) {
            // MySQL unreachable, most likely: the generator keeps issuing until its lease runs out by
            // its own clock, then refuses; the next round tries again.
            log.warn("Id worker lease round failed: {}", e.toString());
        }
    }

    /** Takes a free or expired worker number; false if every number stayed taken. */
    boolean claimAny() {
        return claimer.claimAny();
    }

    /** Takes this worker number if it is free or expired, and starts the generator on it. */
    boolean claim(int workerId) {
        return claimer.claim(workerId);
    }

    /** Stops issuing and frees the number for the next instance; harmless if there is none. */
    void release() {
        long workerId = ids.workerId();
        if (workerId == IdGenerator.NO_WORKER) {
            return;
        }
        long issuedUntil = ids.stopLease(workerId);
        try {
            if (table.release((int) workerId, owner, issuedUntil)) {
                log.info("Id worker {} released", workerId);
            }
        } catch (RuntimeException e) {
            // It expires by itself after the lease duration.
            log.warn("Could not release id worker {}: {}", workerId, e.toString());
        }
    }

    String owner() {
        return owner;
    }

    IdGenerator ids() {
        return ids;
    }
}
