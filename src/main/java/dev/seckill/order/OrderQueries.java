package dev.seckill.order;

import dev.seckill.id.IdGenerator;
import dev.seckill.orderstream.OrderStream;
import dev.seckill.web.ProblemCode;
import dev.seckill.web.SeckillProblem;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

@Service
class OrderQueries {

    private final OrderRepository orders;
    private final OrderStream stream;

    OrderQueries(OrderRepository orders, OrderStream stream) {
        this.orders = orders;
        this.stream = stream;
    }

    /**
     * MySQL first (CONFIRMED); otherwise an order of the async path still on its way (PENDING) or
     * given up (FAILED). Another shopper's order answers exactly like a missing one.
     */
    @Transactional(readOnly = true)
    OrderView findOwn(long orderId, long shopperId) {
        return orders.findByIdAndUserId(orderId, shopperId).map(VoucherOrder::toView).orElseGet(() -> {
            OrderStream.PendingState state = stream.stateOf(orderId, shopperId);
            return switch (state.kind()) {
                case PENDING -> new OrderView(orderId, state.voucherId(), OrderStatus.PENDING, IdGenerator.issuedAt(orderId));
                case FAILED -> new OrderView(orderId, state.voucherId(), OrderStatus.FAILED, IdGenerator.issuedAt(orderId));
                // Written to MySQL (and no longer pending) between the two reads: read MySQL again.
                case UNKNOWN -> orders.findByIdAndUserId(orderId, shopperId).map(VoucherOrder::toView)
                        .orElseThrow(() -> new SeckillProblem(ProblemCode.ORDER_NOT_FOUND));
            };
        });
    }
}
