package dev.seckill.sale.sync;

import dev.seckill.SyncMode;
import dev.seckill.voucher.StockResetRequested;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

/**
 * A stock reset writes the Redis counter from MySQL less the units sync requests hold (stock-reset.lua):
 * first the units of orders already committed are settled, or they would be counted twice.
 */
@SyncMode
@Component
class SyncUnitEvents {

    private final SyncUnitSweeper sweeper;

    SyncUnitEvents(SyncUnitSweeper sweeper) {
        this.sweeper = sweeper;
    }

    /** Published under the voucher's lock and reset fence, before the reset changes MySQL (and deletes orders, maybe). */
    @EventListener
    void beforeReset(StockResetRequested event) {
        sweeper.settleCommitted(event.voucherId());
    }
}
