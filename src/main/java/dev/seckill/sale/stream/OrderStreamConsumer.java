package dev.seckill.sale.stream;

import dev.seckill.sale.Ticker;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import dev.seckill.AsyncMode;
import dev.seckill.platform.ShutdownOrder;
import dev.seckill.voucher.SaleWindowCache;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * Moves accepted orders from the voucher streams into MySQL. Each instance runs its own consumer
 * threads under its own names in one shared group; each thread has a {@link StreamPoller} that decides
 * what to read and an {@link OrderBatchStep} that writes it. A batch is persisted under its shoppers'
 * locks in one transaction and acknowledged only after it committed, so a crash at any point leaves the
 * messages pending: the same instance finds them again on restart, any other takes them over once they
 * have been idle for {@code claimIdle}, and the writer skips orders already in MySQL. Outages are waited
 * out with back-off and count no attempt ({@link FailureClassifier}); what an order's own failures come
 * to is the {@link OrderFailurePolicy}'s call.
 */
@AsyncMode
@Component
class OrderStreamConsumer implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(OrderStreamConsumer.class);
    /** A sale over for this long, with nothing left in its stream, leaves the registry. */
    private static final Duration ENDED_SALE_GRACE = Duration.ofMinutes(1);
    /**
     * How long stop() waits for the threads. A batch takes milliseconds; this covers one statement stuck
     * until the JDBC socket timeout (5 s) and its acknowledgement. A thread still busy then is abandoned:
     * its messages stay unacknowledged and are read again, never lost. Keeps {@code scripts/cluster down}
     * (30 s before it kills) quick.
     */
    private static final long STOP_WAIT_MILLIS = 10_000;

    private final ConsumerStream stream;
    private final OrderBatchStep batchStep;
    private final StreamSettings settings;
    private final SaleWindowCache windows;
    private final Clock clock;
    private final List<Thread> threads = new ArrayList<>();
    private volatile boolean running;
    /** Counted down by stop(): wakes threads sleeping between polls or backing off, at once. */
    private volatile CountDownLatch stopSignal = new CountDownLatch(0);

    OrderStreamConsumer(ConsumerStream stream, OrderBatchStep batchStep, StreamSettings settings,
            SaleWindowCache windows, Clock clock) {
        this.stream = stream;
        this.batchStep = batchStep;
        this.settings = settings;
        this.windows = windows;
        this.clock = clock;
    }

    @Override
    public synchronized void start() {
        stopSignal = new CountDownLatch(1);
        running = true;
        for (int i = 1; i <= settings.consumers(); i++) {
            String name = settings.consumerName() + "-" + i;
            StreamPoller poller = new StreamPoller(name, stream, settings, Ticker.SYSTEM, this::saleOver, batchStep);
            Thread thread = new Thread(() -> run(name, poller), "order-consumer-" + i);
            thread.setDaemon(true);
            threads.add(thread);
            thread.start();
        }
        log.info("Started {} order stream consumer(s) named {}-N in group {}", settings.consumers(),
                settings.consumerName(), settings.group());
    }

    /**
     * Lets each thread finish the batch in hand (its round of polls): what it committed, it acknowledges;
     * then it reads nothing more. A thread asleep or backing off wakes at once.
     */
    @Override
    public synchronized void stop() {
        running = false;
        stopSignal.countDown();
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(STOP_WAIT_MILLIS);
        int stuck = 0;
        for (Thread thread : threads) {
            try {
                thread.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            if (thread.isAlive()) {
                stuck++;
            }
        }
        threads.clear();
        if (stuck == 0) {
            log.info("Order stream consumers stopped, the batches in hand written and acknowledged");
        } else {
            log.warn("{} order stream consumer(s) did not stop within {} ms; what they hold unacknowledged is read "
                    + "again after a restart or taken over by another instance", stuck, STOP_WAIT_MILLIS);
        }
    }

    /** After the web server (no request queues an order here any more), before the id lease and the clients. */
    @Override
    public int getPhase() {
        return ShutdownOrder.ORDER_CONSUMERS;
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    private void run(String name, StreamPoller poller) {
        while (running) {
            try {
                if (!poller.pollRound()) {
                    sleep(settings.idlePoll().toMillis());
                }
            } catch (RuntimeException e) {
                long backoff = TimeUnit.NANOSECONDS.toMillis(poller.outage());
                if (FailureClassifier.classify(e) == FailureClassifier.Failure.OUTAGE) {
                    log.warn("Order consumer {}: {} ({}); retrying in {} ms", name, e.getClass().getSimpleName(),
                            e.getMessage(), backoff);
                } else {
                    log.error("Order consumer {} failed; retrying in {} ms", name, backoff, e);
                }
                sleep(backoff);
            }
        }
    }

    /** Sale windows are wall-clock times: this is the one comparison that uses the wall clock. */
    private boolean saleOver(long voucherId) {
        // A voucher that no longer exists is over too.
        return windows.find(voucherId).map(window -> window.end().plus(ENDED_SALE_GRACE).isBefore(clock.instant()))
                .orElse(true);
    }

    /** Sleeps between polls, but not past stop(). */
    private void sleep(long millis) {
        try {
            stopSignal.await(millis, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            running = false;
        }
    }
}
