package dev.seckill.platform;

import org.springframework.boot.web.server.context.WebServerGracefulShutdownLifecycle;
import org.springframework.context.SmartLifecycle;

/**
 * The SmartLifecycle phases of everything that takes part in a shutdown, in one place because their order
 * is the point: Spring stops the highest phase first and starts the lowest first. Bean destruction, where
 * the Redisson client and the connection pool close, comes after every phase has stopped.
 */
public final class ShutdownOrder {

    /** Stops first: readiness down, then {@code seckill.shutdown.drain} of serving with {@code Connection: close}. */
    public static final int TRAFFIC_DRAIN = SmartLifecycle.DEFAULT_PHASE;

    /** Spring Boot's graceful shutdown: Tomcat pauses, closes its port and waits for the requests in flight. */
    public static final int WEB_GRACEFUL_SHUTDOWN = WebServerGracefulShutdownLifecycle.SMART_LIFECYCLE_PHASE;

    /**
     * Spring Boot's web server (its {@code WebServerStartStopLifecycle} is not public; Boot 4.1 puts it 1024
     * below the graceful shutdown): the port opens when this phase starts, Tomcat stops when it stops.
     */
    public static final int WEB_SERVER = WEB_GRACEFUL_SHUTDOWN - 1024;

    /**
     * The sweeper of sync units left by requests that died: stopped once this instance's requests have finished
     * (each settles its own unit), which the web server's stop waited for.
     */
    public static final int SYNC_UNIT_SWEEPER = WEB_SERVER - 1024;

    /**
     * The expiry of unpaid orders: stopped after the web server (no cancel is in flight), before the consumers. A
     * batch it was in the middle of rolls back whole; another instance, or this one's next start, takes it again.
     */
    public static final int ORDER_EXPIRY = WEB_SERVER - 1536;

    /**
     * The order stream consumers: stopped once no request can queue an order here any more, they finish
     * the batch in hand, commit and acknowledge it. They start before the port opens.
     */
    public static final int ORDER_CONSUMERS = WEB_SERVER - 2048;

    /**
     * The live numbers' snapshot writer: stopped after the consumers, it writes a last snapshot that counts
     * what they and the requests finished while stopping.
     */
    public static final int LIVE_SNAPSHOTS = ORDER_CONSUMERS - 1024;

    /** The Redis epoch check: its first round runs before the port opens, so a loss during downtime is on record first. */
    public static final int REDIS_EPOCH_CHECK = ORDER_CONSUMERS - 2048;

    /**
     * The id worker lease: taken before anything can issue an id, released after the web server (every
     * request issuing ids) has stopped.
     */
    public static final int ID_WORKER_LEASE = SmartLifecycle.DEFAULT_PHASE - 10_000;

    private ShutdownOrder() {
    }
}
