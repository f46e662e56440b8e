package dev.seckill.order;

import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

import dev.seckill.id.IdGenerator;
import dev.seckill.salestate.OrderStates;
import dev.seckill.refusal.Reason;
import dev.seckill.refusal.Refusal;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/** A shopper's own orders, read back: by id, or by voucher (one shopper holds at most one order of each). */
@Service
public class OwnOrders {

    private final OrderRepository orders;
    private final OrderStates stream;
    private final Clock clock;

    OwnOrders(OrderRepository orders, OrderStates stream, Clock clock) {
        this.orders = orders;
        this.stream = stream;
        this.clock = clock;
    }

    private OrderView view(VoucherOrder order) {
        return order.toView(clock.instant());
    }

    /**
     * MySQL first (AWAITING_PAYMENT and after); otherwise an order of the async path still on its way (PENDING) or
     * given up (FAILED). Another shopper's order answers exactly like a missing one.
     * <p>
     * Not one transaction: each MySQL read is its own, so the second one sees an order that was written
     * (and left Redis's pending orders) after the first. In one REPEATABLE READ transaction the second read
     * would see the first one's snapshot, and an order written in between would be answered order-not-found.
     */
    public OrderView findOwn(long orderId, long shopperId) {
        return orders.findByIdAndUserId(orderId, shopperId).map(this::view).orElseGet(() -> {
            OrderStates.PendingState state = stream.stateOf(orderId, shopperId);
            return switch (state.kind()) {
                case PENDING -> OrderView.onItsWay(orderId, state.voucherId(), OrderStatus.PENDING, IdGenerator.issuedAt(orderId));
                case FAILED -> OrderView.onItsWay(orderId, state.voucherId(), OrderStatus.FAILED, IdGenerator.issuedAt(orderId));
                // Written to MySQL (and no longer pending) between the two reads: read MySQL again.
                case UNKNOWN -> orders.findByIdAndUserId(orderId, shopperId).map(this::view)
                        .orElseThrow(() -> new Refusal(Reason.ORDER_NOT_FOUND));
            };
        });
    }

    /** The state of the shopper's own order now, as {@link #findOwn} tells it; empty when it is not found. */
    public Optional<OrderStatus> statusOfOwn(long orderId, long shopperId) {
        try {
            return Optional.of(findOwn(orderId, shopperId).status());
        } catch (Refusal notFound) {
            return Optional.empty();
        }
    }

    /**
     * The shopper's order of this voucher, for a shopper who lost the answer to their purchase: MySQL
     * first (CONFIRMED; one indexed read on the unique key), otherwise what Redis knows (PENDING, or
     * FAILED for the latest order given up), one script call. Works in both modes: in sync mode every
     * order is in MySQL and Redis has nothing to add. Only the caller's own order can be found, since
     * both stores are asked for this shopper's.
     */
    public OrderView findOwnForVoucher(long shopperId, long voucherId) {
        Optional<OrderView> inMySql = orders.findByUserIdAndVoucherId(shopperId, voucherId).map(this::view);
        if (inMySql.isPresent()) {
            return inMySql.get();
        }
        OrderStates.ShopperOrder inRedis = stream.orderOf(voucherId, shopperId);
        long orderId = inRedis.orderId();
        return switch (inRedis.kind()) {
            case PENDING -> OrderView.onItsWay(orderId, voucherId, OrderStatus.PENDING, IdGenerator.issuedAt(orderId));
            case FAILED -> OrderView.onItsWay(orderId, voucherId, OrderStatus.FAILED, IdGenerator.issuedAt(orderId));
            // Written to MySQL after our read of it (WRITTEN), or known only to MySQL (BUYER): read it
            // again. Still nothing means the order is gone (a reset that deleted orders).
            case WRITTEN, BUYER -> orders.findByUserIdAndVoucherId(shopperId, voucherId).map(this::view)
                    .orElseThrow(() -> new Refusal(Reason.ORDER_NOT_FOUND));
            case NONE -> throw new Refusal(Reason.ORDER_NOT_FOUND);
        };
    }

    /**
     * The shopper's latest orders as MySQL has them. An async order still on its way (a few milliseconds
     * normally) is not listed yet; {@link #findOwn} follows one order through every state.
     */
    @Transactional(readOnly = true)
    public List<OrderView> latestOwn(long shopperId) {
        return orders.findTop50ByUserIdOrderByIdDesc(shopperId).stream().map(this::view).toList();
    }

    /** The id of the shopper's order of this voucher in MySQL, if any (the sync path's orders all are). */
    public OptionalLong orderIdInMySql(long shopperId, long voucherId) {
        return orders.findByUserIdAndVoucherId(shopperId, voucherId).map(order -> OptionalLong.of(order.id()))
                .orElse(OptionalLong.empty());
    }

    /**
     * The shopper's live order of this voucher for the async path, Redis first: PENDING or WRITTEN
     * from the shopper -> order index (one script call, no MySQL read for a shopper who never bought),
     * MySQL only for a buyer the index does not name. A FAILED order is not live: its unit went back.
     */
    public OptionalLong liveOrderIdAsync(long shopperId, long voucherId) {
        OrderStates.ShopperOrder inRedis = stream.orderOf(voucherId, shopperId);
        return switch (inRedis.kind()) {
            case PENDING, WRITTEN -> OptionalLong.of(inRedis.orderId());
            case BUYER -> orderIdInMySql(shopperId, voucherId);
            case FAILED, NONE -> OptionalLong.empty();
        };
    }
}
