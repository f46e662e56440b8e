package dev.seckill.salestate;

import dev.seckill.platform.LuaScript;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.redisson.api.RBatch;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;
import org.springframework.stereotype.Component;

/**
 * What Redis knows of a voucher's sale and of orders not (or not only) in MySQL: a shopper's order of a
 * voucher, an order's state by its id, a voucher's counts of pending, failed and dead-lettered orders, and
 * the whole state an audit compares with MySQL ({@link #read}). Reads only; the scripts write these keys.
 */
@Component
public class OrderStates {

    private final RedissonClient redisson;
    private final LuaScript shopperOrder;

    public OrderStates(RedissonClient redisson) {
        this.redisson = redisson;
        this.shopperOrder = new LuaScript(redisson, "shopper-order.lua");
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
        batch.getSet(VoucherKeys.returnedUnits(voucherId), StringCodec.INSTANCE).sizeAsync();
        List<?> answers = batch.execute().getResponses();
        return new StreamCounts(((Number) answers.get(0)).longValue(), ((Number) answers.get(1)).longValue(),
                ((Number) answers.get(2)).longValue());
    }

    public record StreamCounts(long pending, long failed, long deadLetters) {
    }

    public record PendingState(Kind kind, long voucherId) {

        static final PendingState UNKNOWN = new PendingState(Kind.UNKNOWN, 0);

        public enum Kind { PENDING, FAILED, UNKNOWN }
    }

    /** The vouchers that have an order stream (the async path registers each one before its first order). */
    public Set<Long> registeredVouchers() {
        Set<Long> vouchers = new HashSet<>();
        for (Object id : redisson.getSet(VoucherKeys.ORDER_STREAMS, StringCodec.INSTANCE).readAll()) {
            vouchers.add(Long.parseLong(id.toString()));
        }
        return vouchers;
    }

    /**
     * @param stock            the counter, null when Redis holds none
     * @param pendingOrderIds  accepted async orders not acknowledged yet (in MySQL or on their way)
     * @param syncUnitOrderIds orders of sync requests that hold a unit and have not settled it yet
     * @param unitsReturned    orders (expired, cancelled) whose unit went back into the counter
     */
    public record SaleState(Long stock, Set<String> pendingOrderIds, Set<String> syncUnitOrderIds, long failed,
            long deadLetters, long unitsReturned) {
    }

    @SuppressWarnings("unchecked")
    public SaleState read(long voucherId) {
        RBatch batch = redisson.createBatch();
        batch.getBucket(VoucherKeys.stock(voucherId), StringCodec.INSTANCE).getAsync();
        batch.getMap(VoucherKeys.pending(voucherId), StringCodec.INSTANCE).readAllKeySetAsync();
        batch.getMap(VoucherKeys.syncUnits(voucherId), StringCodec.INSTANCE).readAllKeySetAsync();
        batch.getMap(VoucherKeys.failed(voucherId), StringCodec.INSTANCE).sizeAsync();
        batch.getStream(VoucherKeys.deadLetters(voucherId), StringCodec.INSTANCE).sizeAsync();
        batch.getSet(VoucherKeys.returnedUnits(voucherId), StringCodec.INSTANCE).sizeAsync();
        List<?> answers = batch.execute().getResponses();
        Object stock = answers.get(0);
        return new SaleState(stock == null ? null : Long.valueOf(stock.toString()), (Set<String>) answers.get(1),
                (Set<String>) answers.get(2), ((Number) answers.get(3)).longValue(), ((Number) answers.get(4)).longValue(),
                ((Number) answers.get(5)).longValue());
    }
}
