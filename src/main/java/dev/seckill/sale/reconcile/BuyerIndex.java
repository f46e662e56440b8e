package dev.seckill.sale.reconcile;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.seckill.salestate.VoucherKeys;
import org.redisson.api.BatchOptions;
import org.redisson.api.RBatch;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;
import org.springframework.stereotype.Component;

/**
 * What a rebuild of a voucher's Redis state reads and rewrites besides the counter: the orders on their way
 * and those given up, and the buyer set with the shopper -> order index, replaced in one atomic batch.
 */
@Component
class BuyerIndex {

    /** Members per SADD / HSET, so that no single command of the rebuild carries a whole sale. */
    private static final int CHUNK = 1_000;

    private final RedissonClient redisson;

    BuyerIndex(RedissonClient redisson) {
        this.redisson = redisson;
    }

    /** orderId -> shopperId of the accepted orders not acknowledged as in MySQL yet. */
    public Map<String, String> pendingOrders(long voucherId) {
        return readHash(VoucherKeys.pending(voucherId));
    }

    /** orderId -> shopperId of the orders given up on after their retries. */
    public Map<String, String> failedOrders(long voucherId) {
        return readHash(VoucherKeys.failed(voucherId));
    }

    /** Replaces the buyer set and the shopper -> order index, atomically (no reader sees half of either). */
    public void replace(long voucherId, Collection<String> buyers, Map<String, String> shopperOrders) {
        RBatch batch = redisson.createBatch(BatchOptions.defaults().executionMode(BatchOptions.ExecutionMode.IN_MEMORY_ATOMIC));
        batch.getSet(VoucherKeys.buyers(voucherId), StringCodec.INSTANCE).deleteAsync();
        List<String> all = new ArrayList<>(buyers);
        for (int from = 0; from < all.size(); from += CHUNK) {
            batch.getSet(VoucherKeys.buyers(voucherId), StringCodec.INSTANCE)
                    .addAllAsync(all.subList(from, Math.min(all.size(), from + CHUNK)));
        }
        batch.getMap(VoucherKeys.shopperOrders(voucherId), StringCodec.INSTANCE).deleteAsync();
        Map<String, String> chunk = new HashMap<>();
        for (Map.Entry<String, String> entry : shopperOrders.entrySet()) {
            chunk.put(entry.getKey(), entry.getValue());
            if (chunk.size() == CHUNK) {
                batch.getMap(VoucherKeys.shopperOrders(voucherId), StringCodec.INSTANCE).putAllAsync(chunk);
                chunk = new HashMap<>();
            }
        }
        if (!chunk.isEmpty()) {
            batch.getMap(VoucherKeys.shopperOrders(voucherId), StringCodec.INSTANCE).putAllAsync(chunk);
        }
        batch.execute();
    }

    private Map<String, String> readHash(String key) {
        Map<String, String> entries = new HashMap<>();
        redisson.<String, String>getMap(key, StringCodec.INSTANCE).readAllMap()
                .forEach((field, value) -> entries.put(String.valueOf(field), String.valueOf(value)));
        return entries;
    }
}
