package dev.seckill.voucher;

import java.time.Duration;

/**
 * The instances' payment window ({@code seckill.payment.window}): the window of a voucher created without one of its
 * own, and of a voucher created before windows were per voucher. The setting belongs to the order module, which
 * implements this; the interface lives here so that the dependency points from orders to vouchers, as
 * {@link OrderCount} does.
 */
public interface DefaultPaymentWindow {

    Duration window();
}
