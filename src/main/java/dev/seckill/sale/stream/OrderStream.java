package dev.seckill.sale.stream;

import java.time.Duration;

import dev.seckill.salestate.OrderStates;

import dev.seckill.salestate.QueuedOrder;

import dev.seckill.sale.room.RoomSettings;
import dev.seckill.salestate.VoucherKeys;

import dev.seckill.platform.LuaScript;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import org.redisson.api.RStream;
import org.redisson.api.RedissonClient;
import org.springframework.beans.factory.annotation.Autowired;
import org.redisson.api.stream.AutoClaimResult;
import org.redisson.api.stream.StreamCreateGroupArgs;
import org.redisson.api.stream.StreamMessageId;
import org.redisson.api.stream.StreamReadGroupArgs;
import org.redisson.client.RedisException;
import org.redisson.client.codec.StringCodec;
import org.springframework.stereotype.Component;

/**
 * The Redis side of the asynchronous path after the decision: per-voucher order streams (hash-tagged
 * with the voucher id, so the scripts run on Redis Cluster), the registry of vouchers that have one, and
 * the scripts that acknowledge and give up on orders. The decision itself is {@code PurchaseDecision}'s (sale.buying).
 */
@Component
public class OrderStream implements ConsumerStream {

    /** Vouchers with an order stream. Not hash-tagged: no script touches it. */
    static final String REGISTRY = VoucherKeys.ORDER_STREAMS;

    private final RedissonClient redisson;
    private final StreamSettings settings;
    private final OrderStates states;
    private final LuaScript ack;
    private final LuaScript fail;
    private final LuaScript failDuplicate;
    /** An admission's lifetime in ms, for the fail script's give-back ('' for none). */
    private final String admissionLifetime;

    /** Without a waiting room's admission lifetime: an admission a given-up order spent is given back by the room. */
    public OrderStream(RedissonClient redisson, StreamSettings settings, OrderStates states) {
        this(redisson, settings, states, (Duration) null);
    }

    @Autowired
    OrderStream(RedissonClient redisson, StreamSettings settings, OrderStates states, RoomSettings rooms) {
        this(redisson, settings, states, rooms.admissionLifetime());
    }

    private OrderStream(RedissonClient redisson, StreamSettings settings, OrderStates states,
            Duration admissionLifetime) {
        this.redisson = redisson;
        this.settings = settings;
        this.states = states;
        this.admissionLifetime = admissionLifetime == null ? "" : Long.toString(admissionLifetime.toMillis());
        this.ack = new LuaScript(redisson, "sale/stream/seckill-ack.lua");
        this.fail = new LuaScript(redisson, "sale/stream/seckill-fail.lua");
        this.failDuplicate = new LuaScript(redisson, "sale/stream/seckill-fail-duplicate.lua");
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
        return states.registeredVouchers();
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
                VoucherKeys.pending(v), VoucherKeys.failed(v), VoucherKeys.deadLetters(v), VoucherKeys.attempts(v),
                VoucherKeys.roomSpent(v), VoucherKeys.roomOpenAdmissions(v), VoucherKeys.roomAdmittedAt(v)),
                settings.group(), order.messageId(), Long.toString(order.orderId()), Long.toString(order.shopperId()),
                reason, admissionLifetime) == 1;
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

    private RStream<String, String> stream(long voucherId) {
        return redisson.getStream(VoucherKeys.orders(voucherId), StringCodec.INSTANCE);
    }

    private static List<QueuedOrder> toOrders(long voucherId, Map<StreamMessageId, Map<String, String>> messages) {
        List<QueuedOrder> orders = new ArrayList<>(messages.size());
        messages.forEach((id, fields) -> {
            if (fields != null && fields.containsKey("order")) {
                orders.add(queued(voucherId, id.toString(), fields));
            }
        });
        return orders;
    }

    /** A stream message's fields, as the purchase script writes them. */
    private static QueuedOrder queued(long voucherId, String messageId, Map<String, String> fields) {
        return new QueuedOrder(messageId, voucherId, Long.parseLong(fields.get("order")),
                Long.parseLong(fields.get("shopper")), Long.parseLong(fields.get("at")));
    }
}
