package dev.seckill.platform;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.availability.ApplicationAvailability;
import org.springframework.boot.availability.AvailabilityChangeEvent;
import org.springframework.boot.availability.ReadinessState;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * The first step of a shutdown: readiness goes to {@code REFUSING_TRAFFIC} (Spring Boot publishes it when
 * the context starts closing; published here too, in case the context is stopped without closing), then
 * the instance keeps serving for {@code seckill.shutdown.drain} before Tomcat closes its port.
 * <p>
 * What the drain is for depends on the balancer. One that polls {@code /actuator/health/readiness}
 * (Kubernetes, HAProxy, Nginx Plus) stops routing here within its polling interval: the drain must be at
 * least that long. Open-source Nginx has no active health checks and never reads readiness: it keeps
 * sending requests here until connecting fails. What takes the instance out of its rotation is the closed
 * port: a refused connection is retried on the other instance ({@code proxy_next_upstream error}; nothing
 * was sent, so even a POST may be) and after {@code max_fails} such failures within {@code fail_timeout}
 * the instance is skipped for {@code fail_timeout}, then tried again. Meanwhile:
 * <ul>
 *   <li>requests already routed here are served, during the drain and then by the graceful shutdown;</li>
 *   <li>Nginx's idle keep-alive connections to this instance would meet the paused Tomcat, which answers a
 *       request on one 503 itself, never retried. During the drain every answer says {@code Connection:
 *       close} ({@link DrainingConnectionFilter}), so each pooled connection serves one last request and
 *       is closed. One left idle through the whole drain can still get that 503: the drain should give
 *       Nginx a few requests per pooled connection;</li>
 *   <li>what cannot be avoided this way: a connection the kernel accepted just before the port closed,
 *       not yet taken by Tomcat, is reset, and Nginx answers 502 for a request that was never processed
 *       (a few per switch under load). To switch with no error at all, take the
 *       instance out of the upstream first ({@code down}, {@code nginx -s reload}) or use a balancer that
 *       reads readiness.</li>
 * </ul>
 */
@Component
class TrafficDrain implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(TrafficDrain.class);

    private final ApplicationEventPublisher events;
    private final ApplicationAvailability availability;
    private final ShutdownSettings settings;
    private volatile boolean running;
    /** stop() turned readiness down itself (a context stopped, not closed): start() turns it up again. */
    private volatile boolean refusedHere;

    TrafficDrain(ApplicationEventPublisher events, ApplicationAvailability availability, ShutdownSettings settings) {
        this.events = events;
        this.availability = availability;
        this.settings = settings;
    }

    @Override
    public void start() {
        if (refusedHere) {
            refusedHere = false;
            AvailabilityChangeEvent.publish(events, this, ReadinessState.ACCEPTING_TRAFFIC);
        }
        running = true;
    }

    @Override
    public void stop() {
        running = false;
        if (availability.getReadinessState() != ReadinessState.REFUSING_TRAFFIC) {
            refusedHere = true;
            AvailabilityChangeEvent.publish(events, this, ReadinessState.REFUSING_TRAFFIC);
        }
        if (settings.drain().isZero()) {
            return;
        }
        log.info("Shutting down: readiness is REFUSING_TRAFFIC; serving for {} more ms with Connection: close, "
                + "then the port closes", settings.drain().toMillis());
        try {
            Thread.sleep(settings.drain().toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    /** Before everything else, the web server included. */
    @Override
    public int getPhase() {
        return ShutdownOrder.TRAFFIC_DRAIN;
    }
}
