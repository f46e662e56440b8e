package dev.seckill.seckill;

import java.util.Map;

import dev.seckill.web.ProblemCode;
import dev.seckill.web.SeckillProblem;

/**
 * 503 order-unconfirmed (only with {@code seckill.redis.wait-replicas}): the master took the order, but
 * the replicas did not confirm it within the wait. Not a refusal: the order exists and goes on to MySQL
 * like any other, unless Redis fails over to a replica that never got it before then. Not a 202 either:
 * that would promise more than the replicas confirmed. The body names the order; {@code GET /orders/{id}}
 * or {@code GET /orders?voucherId=} says what became of it, and a retry answers already-ordered with it.
 * No {@code Retry-After}: looking the order up is the next step, not sending it again.
 */
final class OrderUnconfirmed extends SeckillProblem {

    private final long orderId;

    OrderUnconfirmed(long orderId, long voucherId) {
        super(ProblemCode.ORDER_UNCONFIRMED, "Order " + orderId + " was taken but no Redis replica confirmed it in time; "
                + "GET /orders?voucherId=" + voucherId + " tells whether it stands");
        this.orderId = orderId;
    }

    @Override
    public Map<String, String> properties() {
        return Map.of("orderId", Long.toString(orderId));
    }
}
