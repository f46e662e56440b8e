package dev.seckill.order;

import java.util.ArrayList;
import java.util.List;

import dev.seckill.salestate.UnitReturns;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * After the transaction that ended orders unpaid committed: their units go back to the Redis counter (once per order,
 * {@link UnitReturns}) so the next shopper can buy them, and MySQL stops owing them. A failure here (Redis out of
 * reach, the instance dying) leaves them owed; the expiry scan of any instance tries them again.
 */
@Component
class UnitsBackToRedis {

    private static final Logger log = LoggerFactory.getLogger(UnitsBackToRedis.class);

    private final UnitReturns redis;
    private final OrderTransitions transitions;
    private final Counter returned;

    UnitsBackToRedis(UnitReturns redis, OrderTransitions transitions, MeterRegistry meters) {
        this.redis = redis;
        this.transitions = transitions;
        this.returned = Counter.builder("seckill.orders.units.returned")
                .description("Units of expired and cancelled orders put back into the Redis counter").register(meters);
    }

    /** Returns how many of {@code ended} are settled: back in Redis, or put off for a minute. */
    int giveBack(List<OrderTransitions.Ended> ended) {
        List<Long> done = new ArrayList<>(ended.size());
        List<Long> later = new ArrayList<>();
        try {
            for (OrderTransitions.Ended order : ended) {
                switch (redis.giveBack(order.voucherId(), order.orderId())) {
                    case RETURNED -> {
                        returned.increment();
                        done.add(order.orderId());
                    }
                    case ALREADY_RETURNED -> done.add(order.orderId());
                    // No counter to add it to: still owed (a rebuild under way may have read MySQL before this unit
                    // came back), but tried again in a minute. Left at its place, returns whose counter never comes
                    // back (a sale nobody buys from any more) filled every retry batch and starved the others.
                    case NOT_CACHED -> later.add(order.orderId());
                }
            }
        } catch (RuntimeException redisUnreachable) {
            log.warn("Units of {} ended orders could not go back to Redis now; the expiry scan tries again: {}",
                    ended.size() - done.size(), redisUnreachable.toString());
        } finally {
            transitions.returnedToRedis(done);
            transitions.returnLater(later);
        }
        return done.size() + later.size();
    }
}
