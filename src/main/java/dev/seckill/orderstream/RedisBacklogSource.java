package dev.seckill.orderstream;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.seckill.salestate.VoucherKeys;
import org.redisson.api.RBatch;
import org.redisson.api.RedissonClient;
import org.redisson.api.stream.StreamMessageId;
import org.redisson.client.codec.StringCodec;
import org.springframework.stereotype.Component;

/** Where the pending-order gauges read from: the order streams in Redis. */
@Component
class RedisBacklogSource implements PendingBacklog.Source {

    private static final String REGISTRY = OrderStream.REGISTRY;

    private final RedissonClient redisson;

    RedisBacklogSource(RedissonClient redisson) {
        this.redisson = redisson;
    }

    /**
     * For the pending gauges, in one round trip: which vouchers have a stream, and for each of these
     * vouchers its pending orders and the oldest of them. The stream only ever holds orders not yet in
     * MySQL (acknowledging or giving one up deletes its message), so its first message is the oldest.
     */
    @Override
    public PendingBacklog.Reading read(Collection<Long> vouchers) {
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
}
