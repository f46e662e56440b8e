package dev.seckill.sale.audit;

import dev.seckill.InstanceIdentity;
import java.time.Clock;

import dev.seckill.sale.SaleMeters;
import dev.seckill.platform.PeriodicTask;
import dev.seckill.platform.ShutdownOrder;
import org.springframework.stereotype.Component;

/**
 * Writes this instance's snapshot every {@code seckill.live.every}, on its own thread, never on the request
 * path. Stopped after the web server and the order consumers, it writes one last snapshot, so that the
 * requests and batches they finished while stopping are counted; that snapshot expires with its TTL.
 */
@Component
class LivePublisher extends PeriodicTask {

    private final SaleMeters meters;
    private final LiveSnapshots snapshots;
    private final Clock clock;
    private final String instanceId;

    LivePublisher(SaleMeters meters, LiveSnapshots snapshots, LiveSettings settings, Clock clock,
            InstanceIdentity identity) {
        super("live-snapshot", settings.every(), ShutdownOrder.LIVE_SNAPSHOTS);
        this.meters = meters;
        this.snapshots = snapshots;
        this.clock = clock;
        this.instanceId = identity.instanceId();
    }

    void publish() {
        snapshots.write(instanceId, clock.instant(), meters.counts());
    }

    @Override
    protected void runOnce() {
        publish();
    }

    /** And one last snapshot: the requests and batches finished while stopping are counted too. */
    @Override
    public void stop() {
        super.stop();
        runQuietly();
    }
}
