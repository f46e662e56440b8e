package dev.seckill.order;

import java.time.Clock;
import java.time.Duration;
import java.util.List;

import dev.seckill.platform.PeriodicTask;
import dev.seckill.platform.ShutdownOrder;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import org.springframework.stereotype.Component;

/**
 * Ends the orders nobody paid in time, on every instance, every {@code seckill.payment.expiry-scan}: a scan of MySQL
 * over the {@code (status, pay_by)} index, batch after batch until none is due ({@link OrderTransitions#expireDue}). The
 * timer is the table itself, so it survives what a timer in memory or in Redis would not: an instance's restart
 * (another one scans meanwhile; a batch cut short rolls back and is taken again), a Redis that lost its data (no
 * delayed queue or key expiry to lose), a clock step on an instance (MySQL's clock decides what is due). Then it
 * retries the Redis half of returns left owed.
 */
@Component
class OrderExpiry extends PeriodicTask {

    /** A return younger than this is still in the hands of the instance that ended its order. */
    static final Duration RETURN_GRACE = Duration.ofSeconds(5);

    private final OrderTransitions transitions;
    private final PaymentClosing payments;
    private final UnitsBackToRedis redis;
    private final PaymentWindowSettings settings;
    private final Clock clock;
    private final Timer lag;
    private final Counter expired;
    private final Counter paidAtClose;

    OrderExpiry(OrderTransitions transitions, PaymentClosing payments, UnitsBackToRedis redis, PaymentWindowSettings settings,
            Clock clock, MeterRegistry meters) {
        super("order-expiry", settings.expiryScan(), ShutdownOrder.ORDER_EXPIRY);
        this.transitions = transitions;
        this.payments = payments;
        this.redis = redis;
        this.settings = settings;
        this.clock = clock;
        this.lag = Timer.builder("seckill.orders.expiry.lag")
                .description("From an order's pay_by to its expiry; bounded by seckill.payment.expiry-scan while the scans keep up")
                .publishPercentileHistogram().register(meters);
        this.expired = Counter.builder("seckill.orders.ended").tag("status", OrderStatus.EXPIRED.name())
                .description("Orders that ended, by how").register(meters);
        this.paidAtClose = Counter.builder("seckill.orders.expiry.paid-at-close")
                .description("Orders found paid when the expiry asked the provider to close their payment").register(meters);
    }

    @Override
    protected void runOnce() {
        expireAllDue();
        retryAllOwed();
    }

    /**
     * Batch after batch until fewer than a batch were owed: a backlog of returns whose counters are gone (each put a
     * minute ahead once tried) must not keep a fresh return behind it for one batch per scan.
     */
    void retryAllOwed() {
        List<OrderTransitions.Ended> owed;
        do {
            owed = transitions.returnsOwed(RETURN_GRACE, settings.expiryBatch());
        } while (redis.giveBack(owed) == settings.expiryBatch() && !Thread.currentThread().isInterrupted());
    }

    /** Batch after batch until fewer than a batch were due; returns how many expired. */
    int expireAllDue() {
        int expiredNow = 0;
        OrderTransitions.Batch batch;
        do {
            batch = transitions.expireDue(settings.expiryBatch(), this::close);
            for (OrderTransitions.Ended order : batch.expired()) {
                lag.record(Duration.between(order.payBy(), clock.instant()));
            }
            expired.increment(batch.expired().size());
            expiredNow += batch.expired().size();
            redis.giveBack(batch.expired());
            // A full batch of which nothing ended is a provider out of reach: the next scan tries again.
        } while (batch.taken() == settings.expiryBatch() && batch.ended() > 0 && !Thread.currentThread().isInterrupted());
        return expiredNow;
    }

    private PaymentClosing.Closed close(OrderTransitions.Due order) {
        PaymentClosing.Closed closed = payments.closeOpenPayments(order.orderId());
        if (closed == PaymentClosing.Closed.PAID) {
            paidAtClose.increment();
        }
        return closed;
    }
}
