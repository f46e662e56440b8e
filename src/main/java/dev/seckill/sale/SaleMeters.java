package dev.seckill.sale;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

import dev.seckill.SeckillSettings;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import org.springframework.stereotype.Component;

/**
 * The counters and timers of the order path. Counters are per voucher and looked up once: the first
 * request of a voucher (of a problem code) registers its counter and keeps it in a map, every later one
 * finds it there and increments it, so {@code POST /seckill/{id}} builds no {@code Tags} and no meter id.
 * The same counters, cumulative since this instance started, are what {@link #counts()} hands to the live
 * numbers: one source for Prometheus and the admin page.
 */
@Component
public class SaleMeters {

    /** Refusals of a voucher id that does not exist: no voucher tag, or any client could make up series. */
    static final String UNKNOWN_VOUCHER = "unknown";

    /** Why the consumers gave up on an order; a fixed list, never the error's text. */
    public enum GiveUpReason {
        /** Its unit went back on sale (seckill-fail.lua). */
        COMPENSATED("compensated"),
        /** Its shopper holds another confirmed order of the voucher: no unit returned. */
        DUPLICATE("duplicate");

        private final String tag;

        GiveUpReason(String tag) {
            this.tag = tag;
        }

        public String tag() {
            return tag;
        }
    }

    /** What one voucher's counters say, cumulative since this instance started. */
    public record VoucherCounts(long accepted, Map<String, Long> refused, long replayed, long written,
            Map<String, Long> givenUp) {
    }

    private final MeterRegistry registry;
    private final String mode;
    private final ConcurrentHashMap<Long, VoucherMeters> vouchers = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, Counter> unknownVoucherRefusals = new ConcurrentHashMap<>();
    private final Timer enqueue;
    private final Timer mysqlWrite;
    private volatile LongSupplier enqueueCalls = () -> 0;
    private volatile LongSupplier enqueueOrders = () -> 0;

    public SaleMeters(MeterRegistry registry, SeckillSettings settings) {
        this.registry = registry;
        this.mode = settings.async() ? "async" : "sync";
        // Percentile histograms: Prometheus computes p50/p99 across instances (histogram_quantile), which
        // client-side percentiles cannot be summed into. Untagged by voucher: a histogram is ~70 series.
        this.enqueue = Timer.builder("seckill.redis.enqueue")
                .description("One enqueue call to Redis (the script with the orders that share it), until it answers")
                .publishPercentileHistogram().register(registry);
        this.mysqlWrite = Timer.builder("seckill.mysql.write")
                .description("A consumer batch's insert and commit in MySQL (committed batches only)")
                .publishPercentileHistogram().register(registry);
    }

    /** An order accepted: async, the purchase script took it; sync, its transaction committed. */
    public void accepted(long voucherId) {
        of(voucherId).accepted.increment();
    }

    /** A refusal of {@code POST /seckill/{id}}, by the problem code the shopper got. */
    public void refused(long voucherId, String code) {
        VoucherMeters meters = of(voucherId);
        refusal(meters.refused, meters.tag, code).increment();
    }

    /** A refusal of a voucher id that does not exist, counted without the id. */
    public void refusedUnknownVoucher(String code) {
        refusal(unknownVoucherRefusals, UNKNOWN_VOUCHER, code).increment();
    }

    /** A request with an Idempotency-Key answered with the shopper's existing order: no new order, no refusal. */
    public void replayed(long voucherId) {
        of(voucherId).replayed.increment();
    }

    /** Orders a consumer committed to MySQL (not those a redelivery found there already). */
    public void written(long voucherId, int orders) {
        if (orders > 0) {
            of(voucherId).written.increment(orders);
        }
    }

    public void givenUp(long voucherId, GiveUpReason reason) {
        VoucherMeters meters = of(voucherId);
        meters.givenUp.computeIfAbsent(reason, r -> Counter.builder("seckill.orders.given-up")
                .description("Orders the consumers gave up on after their retries")
                .tag("voucher", meters.tag).tag("reason", r.tag()).register(registry)).increment();
    }

    public void enqueueCall(long nanos) {
        enqueue.record(nanos, TimeUnit.NANOSECONDS);
    }

    public void mysqlWrite(long nanos) {
        mysqlWrite.record(nanos, TimeUnit.NANOSECONDS);
    }

    /**
     * Enqueue calls against the orders they carried: concurrent orders of a voucher share a call, so
     * {@code orders / calls} is the sharing. Read from the coalescer's own counts at each scrape.
     */
    public void bindEnqueueCounts(LongSupplier calls, LongSupplier orders) {
        // A function counter holds what it reads weakly: a lambda held by nobody else would be collected at the next
        // GC and the counter would stop. These meters (a singleton) hold the sources, and the counters read them.
        this.enqueueCalls = calls;
        this.enqueueOrders = orders;
        FunctionCounter.builder("seckill.redis.enqueue.calls", this, meters -> meters.enqueueCalls.getAsLong())
                .description("Enqueue calls sent to Redis").register(registry);
        FunctionCounter.builder("seckill.redis.enqueue.orders", this, meters -> meters.enqueueOrders.getAsLong())
                .description("Orders those enqueue calls carried").register(registry);
    }

    /** Every voucher this instance has counted anything for, with its counts so far. */
    public Map<Long, VoucherCounts> counts() {
        Map<Long, VoucherCounts> counts = new TreeMap<>();
        vouchers.forEach((voucherId, meters) -> counts.put(voucherId, meters.counts()));
        return counts;
    }

    private VoucherMeters of(long voucherId) {
        VoucherMeters meters = vouchers.get(voucherId);
        return meters != null ? meters : vouchers.computeIfAbsent(voucherId, VoucherMeters::new);
    }

    private Counter refusal(ConcurrentHashMap<String, Counter> counters, String voucherTag, String code) {
        Counter counter = counters.get(code);
        if (counter == null) {
            // Micrometer answers the same counter for the same id, so two threads racing here share one.
            counter = counters.computeIfAbsent(code, c -> Counter.builder("seckill.orders.refused")
                    .description("Refusals of POST /seckill/{id}, by problem code")
                    .tag("voucher", voucherTag).tag("code", c).register(registry));
        }
        return counter;
    }

    /** One voucher's counters; those of a refusal code or a give-up reason appear with the first of them. */
    private final class VoucherMeters {

        final String tag;
        final Counter accepted;
        final Counter replayed;
        final Counter written;
        final ConcurrentHashMap<String, Counter> refused = new ConcurrentHashMap<>();
        final ConcurrentHashMap<GiveUpReason, Counter> givenUp = new ConcurrentHashMap<>();

        VoucherMeters(long voucherId) {
            this.tag = Long.toString(voucherId);
            this.accepted = Counter.builder("seckill.orders.accepted").description("Orders accepted")
                    .tag("voucher", tag).tag("mode", mode).register(registry);
            this.replayed = Counter.builder("seckill.orders.replayed")
                    .description("Retries with an Idempotency-Key answered with the shopper's existing order")
                    .tag("voucher", tag).register(registry);
            this.written = Counter.builder("seckill.orders.written")
                    .description("Orders the consumers committed to MySQL").tag("voucher", tag).register(registry);
        }

        VoucherCounts counts() {
            Map<String, Long> refusals = new TreeMap<>();
            refused.forEach((code, counter) -> refusals.put(code, (long) counter.count()));
            Map<String, Long> gaveUp = new TreeMap<>();
            givenUp.forEach((reason, counter) -> gaveUp.put(reason.tag(), (long) counter.count()));
            return new VoucherCounts((long) accepted.count(), refusals, (long) replayed.count(), (long) written.count(),
                    gaveUp);
        }
    }
}
