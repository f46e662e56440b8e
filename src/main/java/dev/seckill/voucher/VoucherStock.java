package dev.seckill.voucher;

import dev.seckill.stock.StockCache;
import dev.seckill.web.ProblemCode;
import dev.seckill.web.SeckillProblem;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Transactional;

/** Rebuilds a voucher's Redis stock counter from MySQL when Redis has lost it. */
@Component
public class VoucherStock {

    private final SeckillVoucherRepository vouchers;
    private final StockCache cache;

    VoucherStock(SeckillVoucherRepository vouchers, StockCache cache) {
        this.vouchers = vouchers;
        this.cache = cache;
    }

    /**
     * SET NX, so instances racing to warm the same counter agree on the first value. Orders in flight
     * at that instant may leave the counter a little high; the guarded UPDATE in MySQL still refuses
     * every unit that is not there.
     */
    @Transactional(readOnly = true)
    public void warmCache(long voucherId) {
        SeckillVoucher voucher = vouchers.findById(voucherId)
                .orElseThrow(() -> new SeckillProblem(ProblemCode.VOUCHER_NOT_FOUND));
        cache.setIfAbsent(voucherId, voucher.getStock());
    }
}
