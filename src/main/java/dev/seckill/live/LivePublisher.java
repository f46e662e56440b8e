package dev.seckill.live;

import java.time.Clock;

import dev.seckill.metrics.SaleMeters;
import dev.seckill.shutdown.PeriodicTask;
import dev.seckill.shutdown.ShutdownOrder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * Writes this instance's snapshot every {@code seckill.live.every}, on its own thread, never on the request
 * path. Stopped after the web server and the order consumers, it writes one last snapshot, so that the
 * requests and batches they finished while stopping are counted; that snapshot expires with its TTL.
 */
@Component
class LivePublisher implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(LivePublisher.class);

    private final SaleMeters meters;
    private final LiveSnapshots snapshots;
    private final Clock clock;
    private final String instanceId;
    private final PeriodicTask timer;

    LivePublisher(SaleMeters meters, LiveSnapshots snapshots, LiveSettings settings, Clock clock,
            @Value("${seckill.web.instance-id}") String instanceId) {
        this.meters = meters;
        this.snapshots = snapshots;
        this.clock = clock;
        this.instanceId = instanceId;
        this.timer = new PeriodicTask("live-snapshot", settings.every(), this::publishQuietly);
    }

    void publish() {
        snapshots.write(instanceId, clock.instant(), meters.counts());
    }

    private void publishQuietly() {
        try {
            publish();
        } catch (RuntimeException e) {
            // Redis unreachable: an outage reported elsewhere; the page shows this instance again once it is back.
            log.debug("Live snapshot not written: {}", e.toString());
        }
    }

    @Override
    public void start() {
        timer.start();
    }

    @Override
    public void stop() {
        timer.stop();
        publishQuietly();
    }

    @Override
    public boolean isRunning() {
        return timer.isRunning();
    }

    @Override
    public int getPhase() {
        return ShutdownOrder.LIVE_SNAPSHOTS;
    }
}
