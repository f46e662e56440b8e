package dev.seckill.voucher;

import java.util.Map;

/** Where {@link SaleWindowCache} loads windows from: every voucher with an id above the given one. */
@FunctionalInterface
interface SaleWindowSource {

    /** Voucher id to window, for ids greater than {@code afterId}, in one query. */
    Map<Long, SaleWindow> loadAfter(long afterId);
}
