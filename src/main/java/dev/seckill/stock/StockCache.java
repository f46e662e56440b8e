package dev.seckill.stock;

import java.util.List;
import java.util.OptionalLong;

import org.redisson.api.RBatch;
import org.redisson.api.RBucket;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;
import org.springframework.stereotype.Component;

/**
 * The voucher stock counters in Redis: the seckill path's fast gate. MySQL stays the truth; a unit is
 * taken here before an order is attempted and given back if the order does not commit, so at most
 * the remaining stock's worth of requests ever reach the voucher lock and the database.
 */
@Component
public class StockCache {

    private final RedissonClient redisson;
    private final LuaScript take;
    private final LuaScript giveBack;

    StockCache(RedissonClient redisson) {
        this.redisson = redisson;
        this.take = new LuaScript(redisson, "stock-take.lua");
        this.giveBack = new LuaScript(redisson, "stock-return.lua");
    }

    static String key(long voucherId) {
        return VoucherKeys.stock(voucherId);
    }

    public void set(long voucherId, int stock) {
        counter(voucherId).set(Integer.toString(stock));
    }

    public OptionalLong read(long voucherId) {
        String value = counter(voucherId).get();
        return value == null ? OptionalLong.empty() : OptionalLong.of(Long.parseLong(value));
    }

    /** One GET: true only when the counter exists and is at zero (a missing counter is not "sold out"). */
    public boolean isSoldOut(long voucherId) {
        OptionalLong stock = read(voucherId);
        return stock.isPresent() && stock.getAsLong() <= 0;
    }

    public TakeResult take(long voucherId, long shopperId) {
        long result = take.evalLong(List.of(key(voucherId), VoucherKeys.buyers(voucherId)), shopperId);
        return switch ((int) result) {
            case 1 -> TakeResult.TAKEN;
            case 0 -> TakeResult.SOLD_OUT;
            case 2 -> TakeResult.ALREADY_BOUGHT;
            default -> TakeResult.NOT_CACHED;
        };
    }

    /**
     * Remembers a committed order's shopper, so a repeat request is refused before it takes a unit,
     * and the order in the shopper -> order index the async path keeps too, so that the index never
     * names another order of a buyer. Both in one round trip.
     */
    public void addBuyer(long voucherId, long shopperId, long orderId) {
        RBatch batch = redisson.createBatch();
        batch.getSet(VoucherKeys.buyers(voucherId), StringCodec.INSTANCE).addAsync(Long.toString(shopperId));
        batch.getMap(VoucherKeys.shopperOrders(voucherId), StringCodec.INSTANCE)
                .fastPutAsync(Long.toString(shopperId), Long.toString(orderId));
        batch.execute();
    }

    public void giveBack(long voucherId) {
        giveBack.evalLong(List.of(key(voucherId)));
    }

    private RBucket<String> counter(long voucherId) {
        return redisson.getBucket(key(voucherId), StringCodec.INSTANCE);
    }

    public enum TakeResult { TAKEN, SOLD_OUT, ALREADY_BOUGHT, NOT_CACHED }
}
