package dev.seckill.sale;

import java.time.Clock;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import dev.seckill.sale.OrderBacklogs.Backlog;
import dev.seckill.sale.OrderBacklogs.Reading;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;

/**
 * The async backlog as gauges: {@code seckill.orders.pending} (orders accepted, not yet in MySQL) and
 * {@code seckill.orders.pending.age} (how long the oldest of them has waited) per voucher. Read lazily,
 * when a gauge is read, and at most once per {@link #REFRESH} for all vouchers together (one pipelined
 * round trip): Prometheus scrapes every gauge of every voucher one after the other, and each would
 * otherwise be a Redis call. Gauges start for a voucher when a consumer here first reads its stream, and
 * end when its stream has left the registry (sale over) with nothing pending. The backlog is the same
 * whichever instance reports it: aggregate with {@code max}, not {@code sum}.
 */
@Component
public class PendingBacklog {

    private static final Logger log = LoggerFactory.getLogger(PendingBacklog.class);
    static final long REFRESH_NANOS = TimeUnit.SECONDS.toNanos(1);

    /** Reads the backlog of these vouchers (Redis, in one round trip). */
    @FunctionalInterface
    public interface Source {
        Reading read(Collection<Long> vouchers);
    }

    private final Source source;
    private final MeterRegistry registry;
    private final Clock clock;
    private final Ticker ticker;
    private final ConcurrentHashMap<Long, List<Meter>> gauges = new ConcurrentHashMap<>();
    // guarded by this
    private Map<Long, Backlog> cached = Map.of();
    private Set<Long> readFor = Set.of();
    private long readAt;
    private boolean everRead;

    @Autowired
    PendingBacklog(OrderBacklogs backlogs, MeterRegistry registry, Clock clock) {
        this(backlogs::read, registry, clock, Ticker.SYSTEM);
    }

    public PendingBacklog(Source source, MeterRegistry registry, Clock clock, Ticker ticker) {
        this.source = source;
        this.registry = registry;
        this.clock = clock;
        this.ticker = ticker;
    }

    /** Starts the voucher's gauges if they have not started yet: a map lookup when they have. */
    public void track(long voucherId) {
        if (!gauges.containsKey(voucherId)) {
            gauges.computeIfAbsent(voucherId, this::register);
        }
    }

    /**
     * The voucher's backlog now, for the admin's live numbers: from the gauges' last read when it is
     * fresh and covers the voucher, else read for this voucher alone (no gauges are started for it).
     */
    public Backlog of(long voucherId) {
        synchronized (this) {
            if (fresh() && cached.containsKey(voucherId)) {
                return cached.get(voucherId);
            }
        }
        return source.read(List.of(voucherId)).backlogs().getOrDefault(voucherId, Backlog.NONE);
    }

    private List<Meter> register(long voucherId) {
        String tag = Long.toString(voucherId);
        return List.of(
                Gauge.builder("seckill.orders.pending", this, backlog -> backlog.pending(voucherId))
                        .description("Orders accepted and not yet in MySQL (the same on every instance)")
                        .tag("voucher", tag).register(registry),
                Gauge.builder("seckill.orders.pending.age", this, backlog -> backlog.oldestAgeMillis(voucherId))
                        .description("How long the oldest pending order has waited (the same on every instance)")
                        .baseUnit("milliseconds").tag("voucher", tag).register(registry));
    }

    double pending(long voucherId) {
        Backlog backlog = current(voucherId);
        return backlog == null ? Double.NaN : backlog.pending();
    }

    double oldestAgeMillis(long voucherId) {
        Backlog backlog = current(voucherId);
        return backlog == null ? Double.NaN : backlog.oldestAgeMillis(clock.millis());
    }

    /** null when Redis could not be read (the gauge shows NaN; tried again after {@link #REFRESH_NANOS}). */
    private synchronized Backlog current(long voucherId) {
        if (!fresh() || !readFor.containsAll(gauges.keySet())) {
            refresh();
        }
        return cached.get(voucherId);
    }

    private boolean fresh() {
        return everRead && !Ticker.reached(ticker.nanos(), readAt + REFRESH_NANOS);
    }

    private void refresh() {
        readAt = ticker.nanos();
        everRead = true;
        readFor = Set.copyOf(gauges.keySet());
        Reading reading;
        try {
            reading = source.read(readFor);
        } catch (RuntimeException e) {
            // An outage: reported elsewhere. Until the next try, a second later, the gauges say NaN.
            log.debug("Pending backlog not read: {}", e.toString());
            cached = Map.of();
            return;
        }
        cached = reading.backlogs();
        for (Map.Entry<Long, Backlog> entry : cached.entrySet()) {
            if (entry.getValue().pending() == 0 && !reading.registered().contains(entry.getKey())) {
                // The sale is over and its stream gone from the registry: a series per voucher ever sold
                // would grow for as long as the instance runs.
                List<Meter> ended = gauges.remove(entry.getKey());
                if (ended != null) {
                    ended.forEach(registry::remove);
                }
            }
        }
    }
}
