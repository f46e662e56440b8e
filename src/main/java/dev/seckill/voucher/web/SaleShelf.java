package dev.seckill.voucher.web;

import java.util.List;
import java.util.Map;

import dev.seckill.voucher.OrderCount;
import dev.seckill.voucher.VoucherService;
import dev.seckill.voucher.VoucherView;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Isolation;
import org.springframework.transaction.annotation.Transactional;

/**
 * What the shop's pages show of their sales: each voucher's stock and, for a sold-out one, its orders awaiting
 * payment, read in one MySQL snapshot. Units move between the two in single transactions (an order written takes its
 * unit, an order that ends unpaid gives it back), so in one snapshot the stock, the unpaid and the paid orders add up
 * to the units put on sale. Read at two moments, with a cancel or an expiry committed in between, a sale of 3 would read
 * "0 of 3 left · units may come back (2 unpaid orders)". REPEATABLE READ is asked for, not assumed: under READ
 * COMMITTED (a server's setting) each statement would read its own moment again.
 * <p>
 * MySQL, not the Redis counter: MySQL's stock and orders change together, while Redis takes a unit before its order
 * reaches MySQL (async path) and gets a returned unit back only after MySQL's commit, and no read spans both stores
 * at one moment. An order accepted and still on its way to MySQL (milliseconds) is counted as left until it lands.
 */
@Component
class SaleShelf {

    private final VoucherService vouchers;
    private final OrderCount orders;

    SaleShelf(VoucherService vouchers, OrderCount orders) {
        this.vouchers = vouchers;
        this.orders = orders;
    }

    @Transactional(readOnly = true, isolation = Isolation.REPEATABLE_READ)
    public List<SaleOnPage> newest(int count) {
        return onPage(vouchers.newest(0, count));
    }

    @Transactional(readOnly = true, isolation = Isolation.REPEATABLE_READ)
    public SaleOnPage one(long voucherId) {
        return onPage(List.of(vouchers.find(voucherId))).get(0);
    }

    /** Asks the order module once for the page, and only about the sold-out vouchers: the others need no answer. */
    private List<SaleOnPage> onPage(List<VoucherView> listed) {
        List<Long> soldOut = listed.stream().filter(v -> v.stock() <= 0).map(VoucherView::id).toList();
        Map<Long, Long> awaiting = orders.awaitingPayment(soldOut);
        return listed.stream().map(v -> new SaleOnPage(v, awaiting.getOrDefault(v.id(), 0L))).toList();
    }
}
