package dev.seckill.sale.stream;

import dev.seckill.AsyncMode;
import dev.seckill.voucher.VoucherStockChanged;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

/**
 * Keeps the async path's Redis state in step with voucher creation and stock resets: every voucher with
 * stock has a stream its consumers read. (A reset's own Redis writes, the counter and a fresh sale's
 * buyers, are one script under its fence: see {@link dev.seckill.salestate.StockCache#fence}.)
 */
@AsyncMode
@Component
class VoucherStreamEvents {

    private final OrderStream stream;

    VoucherStreamEvents(OrderStream stream) {
        this.stream = stream;
    }

    @EventListener
    void stockChanged(VoucherStockChanged event) {
        stream.register(event.voucherId());
    }
}
