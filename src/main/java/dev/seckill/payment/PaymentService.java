package dev.seckill.payment;

import java.math.BigDecimal;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

import dev.seckill.order.OrderSettlement;
import dev.seckill.payment.PaymentRecords.Payment;
import dev.seckill.refusal.Reason;
import dev.seckill.refusal.Refusal;
import dev.seckill.voucher.VoucherService;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Isolation;
import org.springframework.transaction.annotation.Transactional;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * Our side of paying: a shopper starts paying an order awaiting payment (we open a payment with the provider and send
 * them to its checkout), and the provider's signed notifications move it on ({@link NotificationHandler}).
 */
@Service
public class PaymentService {

    /** What the shopper needs to pay: where, how much, until when. */
    public record StartedPayment(String paymentRef, String checkoutUrl, long amountCents, Instant payBy) {
    }

    private final OrderSettlement orders;
    private final VoucherService vouchers;
    private final PaymentGateway gateway;
    private final PaymentRecords payments;
    private final NotificationHandler handler;
    private final WebhookSignature signature;
    private final PaymentSettings settings;
    private final JsonMapper json;
    private final PaymentMeters meters;
    private final Clock clock;

    PaymentService(OrderSettlement orders, VoucherService vouchers, PaymentGateway gateway, PaymentRecords payments,
            NotificationHandler handler, PaymentSettings settings, JsonMapper json, PaymentMeters meters, Clock clock) {
        this.orders = orders;
        this.vouchers = vouchers;
        this.gateway = gateway;
        this.payments = payments;
        this.handler = handler;
        this.signature = new WebhookSignature(settings.secret());
        this.settings = settings;
        // A provider adds fields to its notifications over time; the ones we read are checked below.
        this.json = json.rebuild().disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES).build();
        this.meters = meters;
        this.clock = clock;
    }

    /**
     * The payment to make for the shopper's own order: the one already open (a page reloaded, a retried request), or a
     * new one (the first, or after the shopper abandoned one at the checkout).
     * <p>
     * One transaction, under the order's row lock ({@link OrderSettlement#payableLocked}) from the look for an open
     * payment until the new one is recorded: requests for one order arriving together (two tabs, a double click, a
     * script) decide one after the other, so the provider is asked to open one payment and each request gets it.
     * Read without the lock, each request found none open and opened its own; a shopper could pay two of them and be
     * charged twice. The lock is held across the provider's call, made once per order: an HTTP request to the
     * provider, bounded by {@code seckill.payment.provider-timeout}.
     * <p>
     * A call that timed out may still have opened the payment; the request the shopper retries then asks with the same
     * idempotency key (the order and how many payments it had before), and the provider answers with that payment
     * rather than opening a second one that nobody would close at the order's expiry.
     *
     * @throws Refusal as {@link OrderSettlement#payable}, and payment-unavailable when the provider cannot be reached
     */
    @Transactional(isolation = Isolation.READ_COMMITTED)
    public StartedPayment start(long orderId, long shopperId) {
        OrderSettlement.Payable order = orders.payableLocked(orderId, shopperId);
        List<Payment> before = payments.ofOrder(orderId);
        Optional<Payment> open = before.stream().filter(payment -> payment.status() == PaymentStatus.OPEN).findFirst();
        if (open.isPresent()) {
            return new StartedPayment(open.get().ref(), open.get().checkoutUrl(), open.get().amountCents(), order.payBy());
        }
        long amountCents = cents(vouchers.find(order.voucherId()).price());
        String idempotencyKey = "order-" + orderId + "-payment-" + (before.size() + 1);
        PaymentGateway.Checkout checkout;
        try {
            checkout = gateway.open(new PaymentGateway.CheckoutRequest(orderId, amountCents, order.payBy(),
                    idempotencyKey));
        } catch (RuntimeException providerUnreachable) {
            throw new Refusal(Reason.PAYMENT_UNAVAILABLE);
        }
        payments.insert(checkout.paymentRef(), orderId, amountCents, checkout.checkoutUrl().toString(), clock.instant());
        meters.opened();
        return new StartedPayment(checkout.paymentRef(), checkout.checkoutUrl().toString(), amountCents, order.payBy());
    }

    /**
     * A notification as the webhook received it: refused unless signed with our secret within the tolerance, then
     * handled once per event id.
     *
     * @throws PaymentRefusal a bad signature, a malformed body, an unknown payment or a wrong amount; nothing changed
     */
    public String receive(String signatureHeader, String body) {
        switch (signature.verify(signatureHeader, body, clock.instant(), settings.tolerance())) {
            case VALID -> { }
            case STALE -> throw new PaymentRefusal(PaymentRefusal.Why.BAD_SIGNATURE,
                    "The notification was signed more than " + settings.tolerance() + " from now");
            case MALFORMED, WRONG -> throw new PaymentRefusal(PaymentRefusal.Why.BAD_SIGNATURE,
                    "The " + WebhookSignature.HEADER + " header does not sign this body with our secret");
        }
        Notification event;
        try {
            event = json.readValue(body, Notification.class);
        } catch (JacksonException e) {
            throw new PaymentRefusal(PaymentRefusal.Why.MALFORMED, "The notification is not one we can read");
        }
        if (event.id() == null || event.type() == null || event.payment() == null || event.payment().ref() == null) {
            throw new PaymentRefusal(PaymentRefusal.Why.MALFORMED, "The notification lacks its id, type or payment");
        }
        return handler.handle(event).name();
    }

    static long cents(BigDecimal price) {
        return price.movePointRight(2).longValueExact();
    }
}
