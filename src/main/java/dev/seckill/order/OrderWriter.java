package dev.seckill.order;

import java.time.Clock;

import dev.seckill.voucher.SeckillVoucherRepository;
import dev.seckill.refusal.Reason;
import dev.seckill.refusal.Refusal;
import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * The unit of work that creates an order. Its own bean so that callers always go through the Spring
 * proxy (a call from inside the same class would silently run without a transaction). When
 * {@link #create} returns, the transaction has committed.
 */
@Service
public class OrderWriter {

    private final OrderRepository orders;
    private final SeckillVoucherRepository vouchers;
    private final Clock clock;

    OrderWriter(OrderRepository orders, SeckillVoucherRepository vouchers, Clock clock) {
        this.orders = orders;
        this.vouchers = vouchers;
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
        if (vouchers.takeOne(voucherId) == 0) {
            throw new Refusal(Reason.SOLD_OUT);
        }
        try {
            orders.saveAndFlush(new VoucherOrder(orderId, shopperId, voucherId, OrderStatus.CONFIRMED, clock.instant()));
        } catch (DataIntegrityViolationException duplicate) {
            throw new Refusal(Reason.ALREADY_ORDERED);
        }
    }
}
