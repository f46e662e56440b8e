package dev.seckill.sale;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.seckill.id.IdGenerator;
import dev.seckill.salestate.VoucherKeys;
import org.redisson.api.RBatch;
import org.redisson.api.RedissonClient;
import org.redisson.api.stream.StreamMessageId;
import org.redisson.client.codec.StringCodec;
import org.springframework.stereotype.Component;

/** The async backlog as Redis holds it: what the pending-order gauges read. */
@Component
public class OrderBacklogs {

    private static final String REGISTRY = VoucherKeys.ORDER_STREAMS;

    private final RedissonClient redisson;

    OrderBacklogs(RedissonClient redisson) {
        this.redisson = redisson;
    }

    /** @param oldestOrderId the oldest pending order (its id says when it was issued), 0 when none is pending */
    public record Backlog(long pending, long oldestOrderId) {

        public static final Backlog NONE = new Backlog(0, 0);

        /** How long the oldest pending order has waited at {@code nowMillis}; 0 when none is pending. */
        public long oldestAgeMillis(long nowMillis) {
            return oldestOrderId == 0 ? 0 : Math.max(0, nowMillis - IdGenerator.issuedAt(oldestOrderId).toEpochMilli());
        }
    }

    /** What one read found: the vouchers with a stream, and the backlog of each voucher asked for. */
    public record Reading(Set<Long> registered, Map<Long, Backlog> backlogs) {
    }

    /**
     * For the pending gauges, in one round trip: which vouchers have a stream, and for each of these
     * vouchers its pending orders and the oldest of them. The stream only ever holds orders not yet in
     * MySQL (acknowledging or giving one up deletes its message), so its first message is the oldest.
     */
    public Reading read(Collection<Long> vouchers) {
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
        Map<Long, Backlog> backlogs = new HashMap<>();
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
            backlogs.put(order.get(i), new Backlog(pending, oldest));
        }
        return new Reading(registered, backlogs);
    }
}
