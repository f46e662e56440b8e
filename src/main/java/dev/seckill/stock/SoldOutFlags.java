package dev.seckill.stock;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import dev.seckill.voucher.VoucherStockChanged;
import org.redisson.api.RTopic;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

/**
 * Which vouchers are sold out, known in memory on every instance, so that after a sale ends each
 * refusal costs no Redis call. Set when the enqueue script answers sold out, cleared when stock comes
 * back (a reset, an order given up); both spread to the other instances through Redis pub/sub.
 * A missed message only costs one Redis call (the script still refuses) or, for a clear, is repaired
 * by the next reset; it never sells what is not there.
 */
@Component
public class SoldOutFlags {

    /** Pub/sub ignores Redis database numbers: the topic carries it, so apps on different databases never mix. */
    static final String TOPIC = "seckill:sold-out:db";

    private final Set<Long> soldOut = ConcurrentHashMap.newKeySet();
    private final RTopic topic;

    SoldOutFlags(RedissonClient redisson, @Value("${spring.data.redis.database:0}") int database) {
        this.topic = redisson.getTopic(TOPIC + database, StringCodec.INSTANCE);
        topic.addListener(String.class, (channel, message) -> apply(message));
    }

    public boolean isSoldOut(long voucherId) {
        return soldOut.contains(voucherId);
    }

    public void markSoldOut(long voucherId) {
        if (soldOut.add(voucherId)) {
            topic.publish("+" + voucherId);
        }
    }

    public void clear(long voucherId) {
        soldOut.remove(voucherId);
        topic.publish("-" + voucherId);
    }

    @EventListener
    void stockChanged(VoucherStockChanged event) {
        clear(event.voucherId());
    }

    private void apply(String message) {
        long voucherId = Long.parseLong(message.substring(1));
        if (message.charAt(0) == '+') {
            soldOut.add(voucherId);
        } else {
            soldOut.remove(voucherId);
        }
    }
}
