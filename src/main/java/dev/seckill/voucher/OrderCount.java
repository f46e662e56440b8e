package dev.seckill.voucher;

import java.util.Collection;
import java.util.Map;

/**
 * How many units a voucher's orders hold (awaiting payment or paid; an expired or cancelled order gave its unit
 * back): a stock reset keeps them (initial stock becomes those + the new stock). Asked
 * here and answered by the order module, which alone reads {@code voucher_order}; the interface lives on this
 * side so that the dependency points from orders to vouchers, as everywhere else.
 */
public interface OrderCount {

    long unitsHeldBy(long voucherId);

    /**
     * Orders awaiting payment, by voucher, for the vouchers given (absent: none): a sold-out sale with some may still
     * get units back when they expire or are cancelled. One query for the whole list; none for an empty one.
     */
    Map<Long, Long> awaitingPayment(Collection<Long> voucherIds);
}
