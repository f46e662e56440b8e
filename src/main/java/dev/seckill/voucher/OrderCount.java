package dev.seckill.voucher;

/**
 * How many orders a voucher has: a stock reset keeps them (initial stock becomes orders + the new stock). Asked
 * here and answered by the order module, which alone reads {@code voucher_order}; the interface lives on this
 * side so that the dependency points from orders to vouchers, as everywhere else.
 */
public interface OrderCount {

    long ordersOf(long voucherId);
}
