package dev.seckill.order;

/**
 * Asked before an order ends unpaid (it expires, or its shopper cancels it): close every payment still open for it
 * with the provider, as providers require, so that none can succeed afterwards. Implemented by the payment module;
 * the interface lives here so that the dependency points from payments to orders.
 */
public interface PaymentClosing {

    enum Closed {
        /** No payment is open for the order any more (none was, or each was closed now). */
        NONE_OPEN,
        /** The provider refused a close because the shopper paid: the order is paid, whatever the notification's delay. */
        PAID
    }

    /**
     * @throws RuntimeException the provider could not be asked: the order must not end yet (it is tried again later)
     */
    Closed closeOpenPayments(long orderId);
}
