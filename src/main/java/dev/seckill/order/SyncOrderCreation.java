package dev.seckill.order;

import java.time.Clock;
import java.util.List;

import dev.seckill.order.NewOrderWriter.NewOrder;
import dev.seckill.order.NewOrderWriter.OrderRejectedException;
import dev.seckill.refusal.Reason;
import dev.seckill.refusal.Refusal;
import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * The unit of work that creates a sync order: a batch of one for {@link NewOrderWriter}, the one
 * writer of the table. Its own bean so that callers always go through the Spring proxy (a call from
 * inside the same class would silently run without a transaction). When {@link #create} returns, the
 * transaction has committed.
 */
@Service
public class SyncOrderCreation {

    private final OrderRepository orders;
    private final NewOrderWriter writer;
    private final Clock clock;

    SyncOrderCreation(OrderRepository orders, NewOrderWriter writer, Clock clock) {
        this.orders = orders;
        this.writer = writer;
        this.clock = clock;
    }

    /**
     * Checks, takes one unit of stock and inserts the order under {@code orderId} (issued by the caller,
     * who named its Redis unit with it), all or nothing. Refusals roll back: already-ordered (also if the
     * unique key catches a race the check missed) and sold-out (the guarded UPDATE changed no row).
     */
    @Transactional
    public void create(long orderId, long shopperId, long voucherId) {
        if (orders.existsByUserIdAndVoucherId(shopperId, voucherId)) {
            throw new Refusal(Reason.ALREADY_ORDERED);
        }
        try {
            writer.persistFresh(voucherId, List.of(new NewOrder(orderId, shopperId, clock.millis())));
        } catch (OrderRejectedException noUnitLeft) {
            throw new Refusal(Reason.SOLD_OUT);
        } catch (DataIntegrityViolationException duplicate) {
            throw new Refusal(Reason.ALREADY_ORDERED);
        }
    }
}
