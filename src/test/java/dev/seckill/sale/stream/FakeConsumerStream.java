package dev.seckill.sale.stream;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.seckill.salestate.QueuedOrder;
import org.redisson.client.RedisConnectionException;
import org.redisson.client.RedisException;

/** An in-memory stand-in for the voucher streams: one group, messages delivered to whoever read them. */
final class FakeConsumerStream implements ConsumerStream {

    final Set<Long> registered = new LinkedHashSet<>();
    final Set<Long> groups = new HashSet<>();
    final Map<Long, Deque<QueuedOrder>> undelivered = new HashMap<>();
    final Map<Long, List<QueuedOrder>> delivered = new HashMap<>();
    /** Messages another (dead) consumer holds, handed out by the next claim. */
    final Map<Long, List<QueuedOrder>> claimable = new HashMap<>();
    final Set<Long> pending = new HashSet<>();
    final Map<String, Long> attempts = new HashMap<>();
    final List<QueuedOrder> acknowledged = new ArrayList<>();
    final List<QueuedOrder> compensated = new ArrayList<>();
    final List<QueuedOrder> duplicates = new ArrayList<>();
    /** Every read and claim, as "new 7", "own 7", "claim 7". */
    final List<String> calls = new ArrayList<>();
    /** When set, every call fails with it: Redis is down. */
    RuntimeException down;
    /** When set, the next acknowledgement fails with it (then it is cleared). */
    RuntimeException nextAckFailure;
    private long nextMessage = 1;

    QueuedOrder accept(long voucherId, long orderId, long shopperId) {
        register(voucherId);
        QueuedOrder order = new QueuedOrder((nextMessage++) + "-0", voucherId, orderId, shopperId, 0);
        undelivered.computeIfAbsent(voucherId, v -> new ArrayDeque<>()).add(order);
        pending.add(orderId);
        return order;
    }

    void register(long voucherId) {
        registered.add(voucherId);
        groups.add(voucherId);
    }

    long callsOf(String call) {
        return calls.stream().filter(call::equals).count();
    }

    private void check(long voucherId) {
        check();
        if (!groups.contains(voucherId)) {
            throw new RedisException("NOGROUP No such key 'seckill:{" + voucherId + "}:orders' or consumer group "
                    + "'order-writers' in XREADGROUP with GROUP option");
        }
    }

    private void check() {
        if (down != null) {
            throw down;
        }
    }

    @Override
    public Set<Long> registeredVouchers() {
        check();
        return new LinkedHashSet<>(registered);
    }

    @Override
    public void ensureGroup(long voucherId) {
        check();
        groups.add(voucherId);
    }

    @Override
    public void unregister(long voucherId) {
        registered.remove(voucherId);
    }

    @Override
    public long pendingOrders(long voucherId) {
        check();
        return undelivered.getOrDefault(voucherId, new ArrayDeque<>()).size()
                + delivered.getOrDefault(voucherId, List.of()).size();
    }

    @Override
    public List<QueuedOrder> readNew(long voucherId, String consumer, int count) {
        calls.add("new " + voucherId);
        check(voucherId);
        Deque<QueuedOrder> queue = undelivered.getOrDefault(voucherId, new ArrayDeque<>());
        List<QueuedOrder> read = new ArrayList<>();
        while (read.size() < count && !queue.isEmpty()) {
            read.add(queue.poll());
        }
        delivered.computeIfAbsent(voucherId, v -> new ArrayList<>()).addAll(read);
        return read;
    }

    @Override
    public List<QueuedOrder> readOwnPending(long voucherId, String consumer, int count) {
        calls.add("own " + voucherId);
        check(voucherId);
        List<QueuedOrder> own = delivered.getOrDefault(voucherId, List.of());
        return new ArrayList<>(own.subList(0, Math.min(count, own.size())));
    }

    @Override
    public List<QueuedOrder> claimIdle(long voucherId, String consumer, int count) {
        calls.add("claim " + voucherId);
        check(voucherId);
        List<QueuedOrder> claimed = claimable.getOrDefault(voucherId, new ArrayList<>());
        claimable.remove(voucherId);
        delivered.computeIfAbsent(voucherId, v -> new ArrayList<>()).addAll(claimed);
        return claimed;
    }

    @Override
    public Set<Long> stillPending(long voucherId, Collection<QueuedOrder> orders) {
        check();
        Set<Long> still = new HashSet<>();
        orders.stream().map(QueuedOrder::orderId).filter(pending::contains).forEach(still::add);
        return still;
    }

    @Override
    public void acknowledge(long voucherId, Collection<QueuedOrder> orders) {
        check();
        if (nextAckFailure != null) {
            RuntimeException failure = nextAckFailure;
            nextAckFailure = null;
            throw failure;
        }
        orders.forEach(this::settle);
        acknowledged.addAll(orders);
    }

    @Override
    public long recordFailedAttempt(QueuedOrder order) {
        check();
        return attempts.merge(order.messageId(), 1L, Long::sum);
    }

    @Override
    public boolean giveUp(QueuedOrder order, String reason) {
        check();
        boolean wasPending = settle(order);
        if (wasPending) {
            compensated.add(order);
        }
        return wasPending;
    }

    @Override
    public boolean giveUpAsDuplicate(QueuedOrder order, String reason) {
        check();
        boolean wasPending = settle(order);
        if (wasPending) {
            duplicates.add(order);
        }
        return wasPending;
    }

    private boolean settle(QueuedOrder order) {
        delivered.getOrDefault(order.voucherId(), new ArrayList<>()).removeIf(m -> m.messageId().equals(order.messageId()));
        attempts.remove(order.messageId());
        return pending.remove(order.orderId());
    }

    static RedisConnectionException redisDown() {
        return new RedisConnectionException("Unable to connect to Redis server: 127.0.0.1/127.0.0.1:6379");
    }
}
