package dev.seckill.voucher;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.PositiveOrZero;

/**
 * @param stock        the units left for sale from now on
 * @param deleteOrders also delete the voucher's orders (a fresh sale); otherwise orders stay and the
 *                     initial stock becomes {@code orders + stock}, so the audit keeps adding up;
 *                     false when absent
 */
public record StockResetRequest(@NotNull @PositiveOrZero @Max(VoucherLimits.MAX_STOCK) Integer stock, Boolean deleteOrders) {

    boolean deletesOrders() {
        return Boolean.TRUE.equals(deleteOrders);
    }
}
