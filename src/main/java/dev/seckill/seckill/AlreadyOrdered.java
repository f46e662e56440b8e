package dev.seckill.seckill;

import java.util.Map;

import dev.seckill.web.ProblemCode;
import dev.seckill.web.SeckillProblem;

/**
 * 409 already-ordered, naming the shopper's existing order ({@code orderId}, a string like every id
 * the API gives) so that a shopper whose first answer was lost finds their order. Without an id when
 * no store can name it (see the services); the refusal stands either way.
 */
final class AlreadyOrdered extends SeckillProblem {

    private final long orderId;

    AlreadyOrdered(long orderId) {
        super(ProblemCode.ALREADY_ORDERED);
        this.orderId = orderId;
    }

    @Override
    public Map<String, String> properties() {
        return orderId > 0 ? Map.of("orderId", Long.toString(orderId)) : Map.of();
    }
}
