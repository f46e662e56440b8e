package dev.seckill.orderstream;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.seckill.lock.HeldShopperLocks;
import dev.seckill.lock.SeckillLocks;
import dev.seckill.orderstream.OrderBatchWriter.NewOrder;
import dev.seckill.stock.SoldOutFlags;
import dev.seckill.voucher.SaleWindowCache;
import dev.seckill.web.SeckillProblem;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * Moves accepted orders from the voucher streams into MySQL. Each instance runs its own consumer
 * threads under its own names in one shared group. A batch is persisted under its shoppers' locks in
 * one transaction and acknowledged only after it committed, so a crash at any point leaves the
 * messages pending: the same instance finds them again on restart, any other takes them over once
 * they have been idle for {@code claimIdle}, and the writer skips orders already in MySQL. Outages
 * (MySQL or Redis unreachable) are waited out with back-off and count no attempt; an order that
 * fails for another reason is retried {@code maxAttempts} times, then given up and compensated.
 */
@Component
class OrderStreamConsumer implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(OrderStreamConsumer.class);
    private static final long REGISTRY_REFRESH_MILLIS = 1_000;
    private static final long MAX_BACKOFF_MILLIS = 5_000;
    /** A stream that keeps coming back empty is read less and less often, down to once a second. */
    private static final long MAX_IDLE_POLL_MILLIS = 1_000;
    /** Orders left for later (shopper locked elsewhere, a failed attempt) are retried this much later. */
    private static final long RETRY_LATER_MILLIS = 200;
    /** A sale over for this long, with nothing left in its stream, leaves the registry. */
    private static final long ENDED_SALE_GRACE_MILLIS = 60_000;

    private final OrderStream stream;
    private final OrderBatchWriter writer;
    private final SeckillLocks locks;
    private final StreamSettings settings;
    private final JdbcTemplate jdbc;
    private final SaleWindowCache windows;
    private final SoldOutFlags soldOut;
    private final List<Thread> threads = new ArrayList<>();
    private volatile boolean running;

    OrderStreamConsumer(OrderStream stream, OrderBatchWriter writer, SeckillLocks locks, StreamSettings settings,
            JdbcTemplate jdbc, SaleWindowCache windows, SoldOutFlags soldOut) {
        this.stream = stream;
        this.writer = writer;
        this.locks = locks;
        this.settings = settings;
        this.jdbc = jdbc;
        this.windows = windows;
        this.soldOut = soldOut;
    }

    @Override
    public synchronized void start() {
        running = true;
        for (int i = 1; i <= settings.consumers(); i++) {
            String name = settings.consumerName() + "-" + i;
            Thread thread = new Thread(new Worker(name), "order-consumer-" + i);
            thread.setDaemon(true);
            threads.add(thread);
            thread.start();
        }
        log.info("Started {} order stream consumer(s) named {}-N in group {}", settings.consumers(),
                settings.consumerName(), settings.group());
    }

    /** Lets each thread finish the batch in hand: it acknowledges what it committed. */
    @Override
    public synchronized void stop() {
        running = false;
        for (Thread thread : threads) {
            try {
                thread.join(10_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        threads.clear();
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    private final class Worker implements Runnable {

        private final String name;
        private Set<Long> vouchers = Set.of();
        private final Map<Long, Integer> emptyReads = new HashMap<>();
        private final Map<Long, Long> nextReadAt = new HashMap<>();
        private long registryReadAt;
        private long claimedAt;
        /** Re-read this consumer's own unacknowledged messages: at start-up and after a failure. */
        private boolean ownPendingFirst = true;
        /** Not before then, so orders left for later never hold up the new ones. */
        private long ownPendingDueAt;
        private long backoffMillis;

        Worker(String name) {
            this.name = name;
        }

        @Override
        public void run() {
            while (running) {
                try {
                    boolean worked = pollOnce();
                    backoffMillis = 0;
                    if (!worked) {
                        sleep(settings.idlePoll().toMillis());
                    }
                } catch (RuntimeException e) {
                    if (!isOutage(e)) {
                        log.error("Order consumer {} failed; retrying", name, e);
                    }
                    ownPendingFirst = true;
                    ownPendingDueAt = 0;
                    backoffMillis = Math.min(MAX_BACKOFF_MILLIS, Math.max(100, backoffMillis * 2));
                    log.warn("Order consumer {}: {} ({}); retrying in {} ms", name, e.getClass().getSimpleName(),
                            e.getMessage(), backoffMillis);
                    sleep(backoffMillis);
                }
            }
        }

        private boolean pollOnce() {
            long now = System.currentTimeMillis();
            if (now - registryReadAt > REGISTRY_REFRESH_MILLIS) {
                Set<Long> current = stream.registeredVouchers();
                for (long voucherId : current) {
                    if (!vouchers.contains(voucherId)) {
                        stream.ensureGroup(voucherId);
                    }
                }
                current.removeIf(voucherId -> pruneIfOver(voucherId, now));
                vouchers = current;
                emptyReads.keySet().retainAll(current);
                nextReadAt.keySet().retainAll(current);
                registryReadAt = now;
            }
            boolean claim = now - claimedAt > settings.claimIdle().toMillis() / 2;
            if (claim) {
                claimedAt = now;
            }
            boolean readOwn = ownPendingFirst && now >= ownPendingDueAt;
            if (readOwn) {
                ownPendingFirst = false;
            }
            boolean worked = false;
            for (long voucherId : vouchers) {
                if (!readOwn && !claim && now < nextReadAt.getOrDefault(voucherId, 0L)) {
                    continue;
                }
                List<QueuedOrder> batch = new ArrayList<>(readOwn
                        ? stream.readOwnPending(voucherId, name, settings.batchSize())
                        : stream.readNew(voucherId, name, settings.batchSize()));
                if (claim) {
                    batch.addAll(stream.claimIdle(voucherId, name, settings.batchSize()));
                }
                if (batch.isEmpty()) {
                    int empty = emptyReads.merge(voucherId, 1, Integer::sum);
                    long delay = Math.min(MAX_IDLE_POLL_MILLIS, settings.idlePoll().toMillis() << Math.min(empty, 10));
                    nextReadAt.put(voucherId, now + delay);
                    continue;
                }
                emptyReads.remove(voucherId);
                nextReadAt.remove(voucherId);
                if (process(voucherId, batch) > 0) {
                    worked = true;
                }
            }
            return worked;
        }

        /**
         * A voucher whose sale ended a while ago (or that this database does not know) and whose
         * stream holds nothing leaves the registry: otherwise every sale ever held would be polled.
         */
        private boolean pruneIfOver(long voucherId, long now) {
            if (emptyReads.getOrDefault(voucherId, 0) < 5) {
                return false;
            }
            boolean over;
            try {
                over = windows.require(voucherId).end().toEpochMilli() + ENDED_SALE_GRACE_MILLIS < now;
            } catch (SeckillProblem unknownVoucher) {
                over = true;
            }
            if (over && stream.counts(voucherId).pending() == 0) {
                stream.unregister(voucherId);
                log.info("Voucher {}: sale over and its stream empty, no longer polled", voucherId);
                return true;
            }
            return false;
        }

        /** Returns how many orders it settled; the rest stay delivered to this consumer for later. */
        private int process(long voucherId, List<QueuedOrder> batch) {
            Set<Long> shoppers = new HashSet<>();
            batch.forEach(order -> shoppers.add(order.shopperId()));
            try (HeldShopperLocks held = locks.tryLockShoppers(voucherId, shoppers)) {
                Set<Long> locked = held.shoppers();
                List<QueuedOrder> mine = batch.stream().filter(o -> locked.contains(o.shopperId())).toList();
                if (mine.size() < batch.size()) {
                    retryOwnLater(); // the others stay delivered to us
                }
                Set<Long> pending = stream.stillPending(voucherId, mine);
                List<QueuedOrder> todo = mine.stream().filter(o -> pending.contains(o.orderId())).toList();
                // Orders no longer pending were acknowledged or given up by whoever held them before.
                persist(voucherId, todo);
                return todo.size();
            }
        }

        private void persist(long voucherId, List<QueuedOrder> orders) {
            if (orders.isEmpty()) {
                return;
            }
            try {
                writer.persist(voucherId, orders.stream().map(o -> new NewOrder(o.orderId(), o.shopperId(),
                        o.createdAtMillis())).toList());
                stream.acknowledge(voucherId, orders);
            } catch (RuntimeException e) {
                if (isOutage(e)) {
                    throw e;
                }
                if (orders.size() > 1) {
                    // Find the order that spoils the batch: one transaction each.
                    orders.forEach(order -> persist(voucherId, List.of(order)));
                } else {
                    failedAttempt(orders.get(0), e);
                }
            }
        }

        private void failedAttempt(QueuedOrder order, RuntimeException e) {
            long attempts = stream.recordFailedAttempt(order);
            if (attempts >= settings.maxAttempts()) {
                String reason = e.getClass().getSimpleName() + ": " + e.getMessage();
                if (stream.giveUp(order, reason.length() > 500 ? reason.substring(0, 500) : reason)) {
                    soldOut.clear(order.voucherId()); // its unit is back: let every instance sell it again
                    log.error("Gave up on order {} of shopper {} (voucher {}) after {} attempts, compensated: {}",
                            order.orderId(), order.shopperId(), order.voucherId(), attempts, reason);
                }
            } else {
                retryOwnLater();
                log.warn("Order {} failed attempt {} of {}: {}", order.orderId(), attempts, settings.maxAttempts(),
                        e.toString());
            }
        }

        private void retryOwnLater() {
            ownPendingFirst = true;
            ownPendingDueAt = System.currentTimeMillis() + RETRY_LATER_MILLIS;
        }

        private void sleep(long millis) {
            try {
                Thread.sleep(millis);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                running = false;
            }
        }
    }

    /**
     * An order's own fault (a duplicate, no stock left in MySQL) counts an attempt. Anything else is
     * an outage if MySQL or Redis does not answer right now: then nothing is wrong with the orders and
     * no attempt counts, however long it lasts. An unexplained error with both answering counts.
     */
    private boolean isOutage(RuntimeException e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof DataIntegrityViolationException || t instanceof OrderBatchWriter.OrderRejectedException) {
                return false;
            }
        }
        try {
            jdbc.queryForObject("SELECT 1", Integer.class);
            stream.registeredVouchers();
            return false;
        } catch (RuntimeException unreachable) {
            return true;
        }
    }
}
