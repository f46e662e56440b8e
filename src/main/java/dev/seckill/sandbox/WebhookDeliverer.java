package dev.seckill.sandbox;

import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.random.RandomGenerator;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.core.env.Environment;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

/**
 * Delivers the queued notifications as providers do: at least once, signed, retried with exponential backoff until
 * the merchant answers 2xx or the attempts run out, and, on purpose, sometimes once more later (same event id). Runs
 * every {@code poll-interval}; sandbox processes share the work through {@link DeliveryQueue}'s claims, so within a
 * lease no two deliver the same row. A round posts its rows one after the other, earliest due first,
 * which is what makes the out-of-order setting's order the order the merchant sees from one instance.
 */
@Component
class WebhookDeliverer implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(WebhookDeliverer.class);

    /** Rows claimed at once: few, so that a round that meets a merchant timing out ends well within its lease. */
    static final int BATCH = 10;
    /** How long a claim keeps other instances off a row: above a whole batch timing out (BATCH x 3 s). */
    static final Duration LEASE = Duration.ofMinutes(1);
    /** Full batches in a row before a round yields to the next one. */
    static final int MAX_BATCHES_PER_ROUND = 20;

    private final DeliveryQueue queue;
    private final SandboxSettings settings;
    private final NotificationSigner signature;
    private final RandomGenerator random;
    private final DueTimes duplicateDelay;
    private final Environment environment;
    private final Clock clock;
    private final WebhookPoster poster = new WebhookPoster();
    private final Counter delivered;
    private final Counter duplicated;
    private final Counter failed;
    private volatile boolean running;

    WebhookDeliverer(DeliveryQueue queue, SandboxSettings settings, RandomGenerator sandboxRandom,
            Environment environment, Clock clock, MeterRegistry meters) {
        this.queue = queue;
        this.settings = settings;
        this.signature = new NotificationSigner(settings.webhookSecret());
        this.random = sandboxRandom;
        this.duplicateDelay = new DueTimes(settings.delayMin(), settings.delayMax(), false, sandboxRandom);
        this.environment = environment;
        this.clock = clock;
        this.delivered = counter(meters, "delivered", "Notifications answered 2xx the first time");
        this.duplicated = counter(meters, "duplicated", "Notifications delivered once more on purpose, answered 2xx");
        this.failed = counter(meters, "failed", "Delivery attempts not answered 2xx (retried until max-attempts)");
    }

    private static Counter counter(MeterRegistry meters, String outcome, String description) {
        return Counter.builder("seckill.sandbox.deliveries").tag("outcome", outcome).description(description)
                .register(meters);
    }

    /**
     * One round. A round that fails (the database out of reach) is tried again at the next tick; a round cut short
     * by shutdown leaves its rows to their lease.
     */
    @Scheduled(fixedDelayString = "${seckill.sandbox.poll-interval:200ms}",
            initialDelayString = "${seckill.sandbox.poll-interval:200ms}")
    void round() {
        if (!running) {
            return;
        }
        try {
            deliverRounds();
        } catch (RuntimeException e) {
            log.debug("Sandbox deliveries skipped this time: {}", e.toString());
        }
    }

    /** Rounds run only between start and stop: stopped first at shutdown, a round posts nothing more. */
    @Override
    public void start() {
        running = true;
    }

    @Override
    public void stop() {
        running = false;
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    private void deliverRounds() {
        for (int batch = 0; batch < MAX_BATCHES_PER_ROUND; batch++) {
            if (deliverDue() < BATCH) {
                return;
            }
        }
    }

    /** One batch: claims the due rows, posts each, marks each. Returns how many it claimed. */
    int deliverDue() {
        List<DeliveryQueue.Claimed> claimed = queue.claim(BATCH, LEASE);
        URI url = webhookUrl();
        for (DeliveryQueue.Claimed row : claimed) {
            deliver(url, row);
        }
        return claimed.size();
    }

    private void deliver(URI url, DeliveryQueue.Claimed row) {
        Optional<String> error = poster.post(url, row.body(), signature.sign(row.body(), clock.instant()));
        if (error.isEmpty()) {
            if (row.deliveredBefore()) {
                duplicated.increment();
                queue.delivered(row, null);
            } else {
                delivered.increment();
                boolean duplicate = random.nextDouble() < settings.duplicateRate();
                queue.delivered(row, duplicate ? duplicateDelay.one() : null);
            }
            return;
        }
        failed.increment();
        int attempts = row.attempts() + 1;
        if (attempts >= settings.maxAttempts()) {
            log.warn("Sandbox notification {} given up after {} attempts at {}: {}", row.eventId(), attempts, url,
                    error.get());
            queue.failed(row, error.get(), null);
        } else {
            queue.failed(row, error.get(), backoff(attempts));
        }
    }

    /** The wait after the n-th failed attempt: the base, doubled for each failure before it, up to the cap. */
    Duration backoff(int failures) {
        Duration wait = settings.retryBackoff().multipliedBy(1L << Math.min(failures - 1, 30));
        return wait.compareTo(settings.retryBackoffMax()) > 0 || wait.isNegative() ? settings.retryBackoffMax() : wait;
    }

    /** Read at each batch, not once: a running sandbox can be pointed at another shop without a restart. */
    URI webhookUrl() {
        return URI.create(environment.getProperty("seckill.sandbox.webhook-url", settings.webhookUrl()));
    }
}
