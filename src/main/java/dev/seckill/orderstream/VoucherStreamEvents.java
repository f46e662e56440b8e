package dev.seckill.orderstream;

import dev.seckill.SeckillSettings;
import dev.seckill.stock.VoucherKeys;
import dev.seckill.voucher.StockResetRequested;
import dev.seckill.voucher.VoucherStockChanged;
import dev.seckill.web.ProblemCode;
import dev.seckill.web.SeckillProblem;
import org.redisson.api.RedissonClient;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

/** Keeps the async path's Redis state in step with voucher creation and stock resets. */
@Component
class VoucherStreamEvents {

    private final SeckillSettings settings;
    private final OrderStream stream;
    private final RedissonClient redisson;

    VoucherStreamEvents(SeckillSettings settings, OrderStream stream, RedissonClient redisson) {
        this.settings = settings;
        this.stream = stream;
        this.redisson = redisson;
    }

    /** A reset while orders are still on their way to MySQL would count them against the new stock. */
    @EventListener
    void beforeReset(StockResetRequested event) {
        long pending = stream.counts(event.voucherId()).pending();
        if (pending > 0) {
            throw new SeckillProblem(ProblemCode.ORDERS_PENDING,
                    pending + " accepted orders are not in MySQL yet; reset once they are");
        }
    }

    @EventListener
    void stockChanged(VoucherStockChanged event) {
        long voucherId = event.voucherId();
        if (event.ordersDeleted()) {
            // A fresh sale: nobody has bought, nobody's order failed, and the index names no order.
            redisson.getKeys().delete(VoucherKeys.buyers(voucherId), VoucherKeys.failed(voucherId),
                    VoucherKeys.shopperOrders(voucherId));
        }
        if (settings.async()) {
            stream.register(voucherId);
        }
    }
}
