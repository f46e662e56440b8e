package dev.seckill.sale.durability;

import dev.seckill.InstanceIdentity;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

import dev.seckill.platform.PeriodicTask;
import dev.seckill.platform.ShutdownOrder;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.redisson.api.RedissonClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * Compares Redis's epoch marker with MySQL's at start-up and then every {@code epoch-check}. Equal: the
 * data set Redis holds is the one the platform has been writing to. Gone from Redis: Redis lost its data
 * (FLUSHALL, a restart without persistence, a failover to an empty replica; on a Redis Cluster, of any one
 * master: see {@link EpochMarkers}), and with it every order it had accepted and not yet handed to MySQL.
 * That is logged as an error, counted, and recorded in MySQL once however many instances notice; then a
 * fresh marker is set so that the next loss is noticed too.
 * The check runs on its own thread with fixed delays (monotonic), never on the request path.
 */
@Component
class RedisEpochWatcher extends PeriodicTask {

    static final String MARKER_KEY = "seckill:epoch";
    private static final Logger log = LoggerFactory.getLogger(RedisEpochWatcher.class);

    private final EpochMarkers markers;
    private final RedisDataLosses losses;
    private final Clock clock;
    private final String instanceId;
    private final Counter lossesSeen;

    RedisEpochWatcher(RedissonClient redisson, RedisDataLosses losses, DurabilitySettings settings, Clock clock,
            MeterRegistry meters, InstanceIdentity identity) {
        // Below the web server's phase: at the default phase, the first check would run after the port opened.
        super("redis-epoch-watcher", settings.epochCheck(), ShutdownOrder.REDIS_EPOCH_CHECK);
        this.markers = new EpochMarkers(redisson, MARKER_KEY);
        this.losses = losses;
        this.clock = clock;
        this.instanceId = identity.instanceId();
        this.lossesSeen = Counter.builder("seckill.redis.data.losses")
                .description("Redis data losses this instance was the first to record").register(meters);
    }

    /** Runs one check; returns the epoch whose loss it recorded, if this instance was the one to record it. */
    Optional<String> check() {
        Optional<RedisDataLosses.Expected> expected = losses.expected();
        List<String> held = markers.read();
        if (expected.isPresent() && EpochMarkers.allHold(held, expected.get().epoch())) {
            return Optional.empty();
        }
        Instant now = clock.instant();
        String current = markers.moveOn(expected.map(RedisDataLosses.Expected::epoch).orElse(null), held);
        if (expected.isEmpty()) {
            losses.begin(current, now);
            return Optional.empty();
        }
        RedisDataLosses.Expected lost = expected.get();
        if (!losses.recordLoss(lost, current, now, instanceId)) {
            return Optional.empty(); // another instance moved on first (and recorded it), or already had
        }
        lossesSeen.increment();
        log.error("Redis lost its data: its epoch marker {} is gone (now {}). Orders it had accepted and not yet "
                + "written to MySQL are lost; the audit of every sale that existed at {} reports redisDataLost. "
                + "Run POST /admin/vouchers/{id}/reconcile for the sales still running. Keep Redis on AOF "
                + "(appendfsync always) so that a restart loses nothing.", lost.epoch(), current, now);
        return Optional.of(lost.epoch());
    }

    @Override
    protected void runOnce() {
        check();
    }

    /** The first check runs before the instance takes requests, so a loss during downtime is on record first. */
    @Override
    public void start() {
        runQuietly();
        super.start();
    }
}
