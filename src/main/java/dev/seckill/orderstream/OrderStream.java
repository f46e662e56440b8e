package dev.seckill.orderstream;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;

import dev.seckill.metrics.SaleMeters;
import dev.seckill.stock.LuaScript;
import dev.seckill.stock.VoucherKeys;
import org.redisson.api.RBatch;
import org.redisson.api.RStream;
import org.redisson.api.RedissonClient;
import org.redisson.api.stream.AutoClaimResult;
import org.redisson.api.stream.StreamCreateGroupArgs;
import org.redisson.api.stream.StreamMessageId;
import org.redisson.api.stream.StreamReadGroupArgs;
import org.redisson.client.RedisException;
import org.redisson.client.codec.StringCodec;
import org.springframework.stereotype.Component;

/**
 * The Redis side of the asynchronous path: per-voucher order streams (hash-tagged with the voucher
 * id, so the enqueue script runs on Redis Cluster), the registry of vouchers that have one, and the
 * scripts that accept, acknowledge and give up on orders.
 */
@Component
public class OrderStream implements ConsumerStream {

    /** Vouchers with an order stream. Not hash-tagged: no script touches it. */
    static final String REGISTRY = "seckill:order-streams";

    private final RedissonClient redisson;
    private final StreamSettings settings;
    private final ReplicaSettings replicas;
    private final LuaScript enqueue;
    private final LuaScript ack;
    private final LuaScript fail;
    private final LuaScript failDuplicate;
    private final LuaScript shopperOrder;
    private final EnqueueCoalescer coalescer;

    OrderStream(RedissonClient redisson, StreamSettings settings, ReplicaSettings replicas, EnqueueSettings enqueueing,
            SaleMeters meters) {
        this.redisson = redisson;
        this.settings = settings;
        this.replicas = replicas;
        this.enqueue = new LuaScript(redisson, "seckill-enqueue.lua");
        this.ack = new LuaScript(redisson, "seckill-ack.lua");
        this.fail = new LuaScript(redisson, "seckill-fail.lua");
        this.failDuplicate = new LuaScript(redisson, "seckill-fail-duplicate.lua");
        this.shopperOrder = new LuaScript(redisson, "shopper-order.lua");
        this.coalescer = new EnqueueCoalescer(this::enqueueBatch, enqueueing.maxBatch(), meters::enqueueCall);
        meters.bindEnqueueCounts(coalescer::calls, coalescer::orders);
    }

    public enum Enqueued {
        ACCEPTED, SOLD_OUT, ALREADY_BOUGHT, NOT_CACHED,
        /** A stock reset holds the voucher's fence: nothing was taken, try again in a moment. */
        RESETTING,
        /**
         * Accepted by the master, but fewer replicas than {@code seckill.redis.wait-replicas} confirmed it
         * within {@code wait-timeout}: the order stands (it goes on to MySQL), only its survival of a
         * failover is unconfirmed. Never the script's answer; only with the opt-in.
         */
        UNCONFIRMED;

        /** seckill-enqueue.lua's numeric answers, named one by one: never by their position in this enum. */
        static Enqueued ofCode(long code) {
            return switch ((int) code) {
                case 0 -> ACCEPTED;
                case 1 -> SOLD_OUT;
                case 2 -> ALREADY_BOUGHT;
                case 3 -> NOT_CACHED;
                case 4 -> RESETTING;
                default -> throw new IllegalStateException("seckill-enqueue.lua answered " + code);
            };
        }
    }

    /**
     * What the enqueue script decided. For {@code ALREADY_BOUGHT}, {@code existingOrderId} is the
     * shopper's order when Redis knows it, else 0 (look in MySQL).
     */
    public record Enqueue(Enqueued outcome, long existingOrderId) {
    }

    /**
     * The one Redis call of an async order: decides and queues atomically. When the shopper already
     * bought, the same call answers which order is theirs, so naming it costs no second round trip.
     * Concurrent orders of the voucher share the call ({@link EnqueueCoalescer}); each gets its own answer.
     * With {@code seckill.redis.wait-replicas} set, the call carries a WAIT for that many replicas in the
     * same pipeline, and an order they did not all confirm in time is {@code UNCONFIRMED}.
     *
     * @throws RuntimeException what Redisson threw for the call (an outage: connection, timeout)
     */
    public Enqueue enqueue(long voucherId, long shopperId, long orderId, long createdAtMillis) {
        try {
            return coalescer.enqueue(voucherId, new EnqueueCoalescer.Order(shopperId, orderId, createdAtMillis)).join();
        } catch (CompletionException e) {
            // The caller handles Redisson's own exceptions (an outage answers 503), as from a blocking call.
            if (e.getCause() instanceof RuntimeException cause) {
                throw cause;
            }
            throw e;
        }
    }

    /** Enqueue calls sent and the orders they carried, since start (fewer calls than orders: shared calls). */
    public record EnqueueCalls(long calls, long orders) {
    }

    public EnqueueCalls enqueueCalls() {
        return new EnqueueCalls(coalescer.calls(), coalescer.orders());
    }

    private CompletionStage<List<Enqueue>> enqueueBatch(long voucherId, List<EnqueueCoalescer.Order> orders) {
        List<Object> keys = VoucherKeys.forEnqueue(voucherId);
        Object[] args = new Object[3 * orders.size()];
        for (int i = 0; i < orders.size(); i++) {
            EnqueueCoalescer.Order order = orders.get(i);
            args[3 * i] = order.shopperId();
            args[3 * i + 1] = order.orderId();
            args[3 * i + 2] = order.createdAtMillis();
        }
        if (replicas.waitReplicas() == 0) {
            return enqueue.evalListAsync(keys, args).thenApply(answers -> outcomes(answers, false));
        }
        return enqueue.evalListReplicatedAsync(replicas.waitReplicas(), replicas.waitTimeout(), keys, args)
                .thenApply(answer -> outcomes(answer.value(), answer.replicas() < replicas.waitReplicas()));
    }

    private static List<Enqueue> outcomes(List<Object> answers, boolean unconfirmed) {
        List<Enqueue> outcomes = new ArrayList<>(answers.size());
        for (Object answer : answers) {
            outcomes.add(outcome(answer, unconfirmed));
        }
        return outcomes;
    }

    private static Enqueue outcome(Object answer, boolean unconfirmed) {
        if (answer instanceof Number code) {
            Enqueued outcome = Enqueued.ofCode(code.longValue());
            return new Enqueue(unconfirmed && outcome == Enqueued.ACCEPTED ? Enqueued.UNCONFIRMED : outcome, 0);
        }
        // The only string answer is the id of the shopper's existing order.
        return new Enqueue(Enqueued.ALREADY_BOUGHT, Long.parseLong(answer.toString()));
    }

    /**
     * What Redis knows of a shopper's order of a voucher, in one atomic read (see shopper-order.lua):
     * the index names it and the pending and failed hashes say what became of it.
     */
    public ShopperOrder orderOf(long voucherId, long shopperId) {
        List<String> answer = shopperOrder.evalStrings(VoucherKeys.forShopperOrder(voucherId), shopperId);
        if (answer == null || answer.isEmpty()) {
            return ShopperOrder.NONE;
        }
        ShopperOrder.Kind kind = ShopperOrder.Kind.valueOf(answer.get(1));
        return new ShopperOrder(kind, kind == ShopperOrder.Kind.BUYER ? 0 : Long.parseLong(answer.get(0)));
    }

    /** A shopper's order of one voucher as Redis knows it; {@code orderId} is 0 for BUYER and NONE. */
    public record ShopperOrder(Kind kind, long orderId) {

        static final ShopperOrder NONE = new ShopperOrder(Kind.NONE, 0);

        public enum Kind {
            /** Accepted, not yet in MySQL. */
            PENDING,
            /** Acknowledged: written to MySQL. */
            WRITTEN,
            /** Given up after its retries. */
            FAILED,
            /** In the buyer set, but the index does not name the order: only MySQL knows it. */
            BUYER,
            /** Redis knows no order of this shopper for this voucher. */
            NONE
        }
    }

    /** Makes the voucher's stream known to every consumer, with its group (never a NOGROUP error). */
    public void register(long voucherId) {
        ensureGroup(voucherId);
        redisson.getSet(REGISTRY, StringCodec.INSTANCE).add(Long.toString(voucherId));
    }

    @Override
    public void unregister(long voucherId) {
        redisson.getSet(REGISTRY, StringCodec.INSTANCE).remove(Long.toString(voucherId));
    }

    @Override
    public Set<Long> registeredVouchers() {
        Set<Long> vouchers = new HashSet<>();
        for (Object id : redisson.getSet(REGISTRY, StringCodec.INSTANCE).readAll()) {
            vouchers.add(Long.parseLong(id.toString()));
        }
        return vouchers;
    }

    @Override
    public void ensureGroup(long voucherId) {
        try {
            stream(voucherId).createGroup(StreamCreateGroupArgs.name(settings.group()).id(StreamMessageId.ALL).makeStream());
        } catch (RedisException e) {
            if (e.getMessage() == null || !e.getMessage().contains("BUSYGROUP")) {
                throw e;
            }
        }
    }

    /** Messages never delivered to anyone, now delivered to {@code consumer}. */
    @Override
    public List<QueuedOrder> readNew(long voucherId, String consumer, int count) {
        return toOrders(voucherId, stream(voucherId).readGroup(settings.group(), consumer,
                StreamReadGroupArgs.neverDelivered().count(count)));
    }

    /** Messages delivered to {@code consumer} before and not acknowledged (after an outage, a crash). */
    @Override
    public List<QueuedOrder> readOwnPending(long voucherId, String consumer, int count) {
        return toOrders(voucherId, stream(voucherId).readGroup(settings.group(), consumer,
                StreamReadGroupArgs.greaterThan(new StreamMessageId(0, 0)).count(count)));
    }

    /** Takes over messages another consumer left unacknowledged for {@code claimIdle} (XAUTOCLAIM). */
    @Override
    public List<QueuedOrder> claimIdle(long voucherId, String consumer, int count) {
        AutoClaimResult<String, String> claimed = stream(voucherId).autoClaim(settings.group(), consumer,
                settings.claimIdle().toMillis(), TimeUnit.MILLISECONDS, new StreamMessageId(0, 0), count);
        return toOrders(voucherId, claimed.getMessages());
    }

    /** Acknowledges orders that are in MySQL now; call only after their transaction committed. */
    @Override
    public void acknowledge(long voucherId, Collection<QueuedOrder> orders) {
        if (orders.isEmpty()) {
            return;
        }
        List<Object> args = new ArrayList<>(1 + 2 * orders.size());
        args.add(settings.group());
        for (QueuedOrder order : orders) {
            args.add(order.messageId());
            args.add(Long.toString(order.orderId()));
        }
        ack.evalLong(List.of(VoucherKeys.orders(voucherId), VoucherKeys.pending(voucherId),
                VoucherKeys.attempts(voucherId)), args.toArray());
    }

    /** Counts a failed attempt to persist this message; returns the attempts so far. */
    @Override
    public long recordFailedAttempt(QueuedOrder order) {
        Object attempts = redisson.getMap(VoucherKeys.attempts(order.voucherId()), StringCodec.INSTANCE)
                .addAndGet(order.messageId(), 1);
        return Long.parseLong(String.valueOf(attempts));
    }

    /** Gives up on an order: stock back, shopper free to buy again, FAILED, dead-lettered, acknowledged. */
    @Override
    public boolean giveUp(QueuedOrder order, String reason) {
        long v = order.voucherId();
        return fail.evalLong(List.of(VoucherKeys.stock(v), VoucherKeys.buyers(v), VoucherKeys.orders(v),
                VoucherKeys.pending(v), VoucherKeys.failed(v), VoucherKeys.deadLetters(v), VoucherKeys.attempts(v)),
                settings.group(), order.messageId(), Long.toString(order.orderId()), Long.toString(order.shopperId()),
                reason) == 1;
    }

    @Override
    public boolean giveUpAsDuplicate(QueuedOrder order, String reason) {
        long v = order.voucherId();
        return failDuplicate.evalLong(List.of(VoucherKeys.orders(v), VoucherKeys.pending(v), VoucherKeys.failed(v),
                VoucherKeys.deadLetters(v), VoucherKeys.attempts(v), VoucherKeys.shopperOrders(v)), settings.group(),
                order.messageId(), Long.toString(order.orderId()), Long.toString(order.shopperId()), reason) == 1;
    }

    @Override
    public long pendingOrders(long voucherId) {
        return redisson.getMap(VoucherKeys.pending(voucherId), StringCodec.INSTANCE).size();
    }

    /** Which of these orders are still waiting for MySQL (not acknowledged, not given up). */
    @Override
    public Set<Long> stillPending(long voucherId, Collection<QueuedOrder> orders) {
        Set<String> ids = new HashSet<>();
        orders.forEach(order -> ids.add(Long.toString(order.orderId())));
        Map<Object, Object> found = redisson.getMap(VoucherKeys.pending(voucherId), StringCodec.INSTANCE).getAll(
                new HashSet<>(ids));
        Set<Long> pending = new HashSet<>();
        found.keySet().forEach(id -> pending.add(Long.parseLong(id.toString())));
        return pending;
    }

    /** PENDING or FAILED for an order not (yet) in MySQL, looked up across registered vouchers in one batch. */
    public PendingState stateOf(long orderId, long shopperId) {
        Set<Long> vouchers = registeredVouchers();
        if (vouchers.isEmpty()) {
            return PendingState.UNKNOWN;
        }
        RBatch batch = redisson.createBatch();
        List<Long> order = new ArrayList<>(vouchers);
        order.forEach(v -> {
            batch.getMap(VoucherKeys.pending(v), StringCodec.INSTANCE).getAsync(Long.toString(orderId));
            batch.getMap(VoucherKeys.failed(v), StringCodec.INSTANCE).getAsync(Long.toString(orderId));
        });
        List<?> answers = batch.execute().getResponses();
        String shopper = Long.toString(shopperId);
        for (int i = 0; i < order.size(); i++) {
            if (shopper.equals(answers.get(2 * i))) {
                return new PendingState(PendingState.Kind.PENDING, order.get(i));
            }
            if (shopper.equals(answers.get(2 * i + 1))) {
                return new PendingState(PendingState.Kind.FAILED, order.get(i));
            }
        }
        return PendingState.UNKNOWN;
    }

    /** For the audit: orders accepted but not in MySQL yet, orders given up, dead letters. */
    public StreamCounts counts(long voucherId) {
        RBatch batch = redisson.createBatch();
        batch.getMap(VoucherKeys.pending(voucherId), StringCodec.INSTANCE).sizeAsync();
        batch.getMap(VoucherKeys.failed(voucherId), StringCodec.INSTANCE).sizeAsync();
        batch.getStream(VoucherKeys.deadLetters(voucherId), StringCodec.INSTANCE).sizeAsync();
        List<?> answers = batch.execute().getResponses();
        return new StreamCounts(((Number) answers.get(0)).longValue(), ((Number) answers.get(1)).longValue(),
                ((Number) answers.get(2)).longValue());
    }

    public record StreamCounts(long pending, long failed, long deadLetters) {
    }

    /**
     * For the pending gauges, in one round trip: which vouchers have a stream, and for each of these
     * vouchers its pending orders and the oldest of them. The stream only ever holds orders not yet in
     * MySQL (acknowledging or giving one up deletes its message), so its first message is the oldest.
     */
    PendingBacklog.Reading backlog(Collection<Long> vouchers) {
        RBatch batch = redisson.createBatch();
        batch.getSet(REGISTRY, StringCodec.INSTANCE).readAllAsync();
        List<Long> order = new ArrayList<>(vouchers);
        for (long v : order) {
            batch.getMap(VoucherKeys.pending(v), StringCodec.INSTANCE).sizeAsync();
            batch.<String, String>getStream(VoucherKeys.orders(v), StringCodec.INSTANCE)
                    .rangeAsync(1, StreamMessageId.MIN, StreamMessageId.MAX);
        }
        List<?> answers = batch.execute().getResponses();
        Set<Long> registered = new HashSet<>();
        for (Object id : (Collection<?>) answers.get(0)) {
            registered.add(Long.parseLong(id.toString()));
        }
        Map<Long, PendingBacklog.Backlog> backlogs = new HashMap<>();
        for (int i = 0; i < order.size(); i++) {
            long pending = ((Number) answers.get(1 + 2 * i)).longValue();
            long oldest = 0;
            if (answers.get(2 + 2 * i) instanceof Map<?, ?> first) {
                for (Object fields : first.values()) {
                    if (fields instanceof Map<?, ?> message && message.get("order") != null) {
                        oldest = Long.parseLong(message.get("order").toString());
                    }
                }
            }
            backlogs.put(order.get(i), new PendingBacklog.Backlog(pending, oldest));
        }
        return new PendingBacklog.Reading(registered, backlogs);
    }

    public record PendingState(Kind kind, long voucherId) {

        static final PendingState UNKNOWN = new PendingState(Kind.UNKNOWN, 0);

        public enum Kind { PENDING, FAILED, UNKNOWN }
    }

    private RStream<String, String> stream(long voucherId) {
        return redisson.getStream(VoucherKeys.orders(voucherId), StringCodec.INSTANCE);
    }

    private static List<QueuedOrder> toOrders(long voucherId, Map<StreamMessageId, Map<String, String>> messages) {
        List<QueuedOrder> orders = new ArrayList<>(messages.size());
        messages.forEach((id, fields) -> {
            if (fields != null && fields.containsKey("order")) {
                orders.add(QueuedOrder.of(voucherId, id.toString(), fields));
            }
        });
        return orders;
    }
}
