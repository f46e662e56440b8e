package dev.seckill.order;

import dev.seckill.web.ProblemCode;
import dev.seckill.web.SeckillProblem;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

@Service
class OrderQueries {

    private final OrderRepository orders;

    OrderQueries(OrderRepository orders) {
        this.orders = orders;
    }

    /** Another shopper's order answers exactly like a missing one, so ids cannot be probed. */
    @Transactional(readOnly = true)
    OrderView findOwn(long orderId, long shopperId) {
        return orders.findByIdAndUserId(orderId, shopperId).map(VoucherOrder::toView)
                .orElseThrow(() -> new SeckillProblem(ProblemCode.ORDER_NOT_FOUND));
    }
}
