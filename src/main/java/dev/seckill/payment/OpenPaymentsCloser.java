package dev.seckill.payment;

import dev.seckill.order.PaymentClosing;
import dev.seckill.payment.PaymentRecords.Payment;
import org.springframework.stereotype.Component;

/**
 * Before an order ends unpaid, every payment of it still open is closed with the provider, as providers require. One
 * the provider says is paid already makes the order paid: its notification may be on its way, or lost; the payment is
 * recorded as the one that paid, so that notification, when it comes, changes nothing.
 */
@Component
class OpenPaymentsCloser implements PaymentClosing {

    private final PaymentGateway gateway;
    private final PaymentRecords payments;

    OpenPaymentsCloser(PaymentGateway gateway, PaymentRecords payments) {
        this.gateway = gateway;
        this.payments = payments;
    }

    @Override
    public Closed closeOpenPayments(long orderId) {
        for (Payment payment : payments.ofOrder(orderId)) {
            if (payment.status() == PaymentStatus.SUCCEEDED) {
                return Closed.PAID;
            }
            if (payment.status() != PaymentStatus.OPEN) {
                continue;
            }
            switch (gateway.close(payment.ref())) {
                case ALREADY_PAID -> {
                    payments.move(payment.ref(), PaymentStatus.SUCCEEDED, PaymentStatus.OPEN);
                    return Closed.PAID;
                }
                case CLOSED, UNKNOWN -> payments.move(payment.ref(), PaymentStatus.CLOSED, PaymentStatus.OPEN);
            }
        }
        return Closed.NONE_OPEN;
    }
}
