package dev.seckill.payment;

/** A notification refused without changing anything; the web adapter answers it as a problem, so the provider retries it. */
public class PaymentRefusal extends RuntimeException {

    public enum Why {
        BAD_SIGNATURE, UNKNOWN_PAYMENT, AMOUNT_MISMATCH, MALFORMED,
        /** The provider does not report yet what the notification says happened: asked again on its next delivery. */
        NOT_SETTLED,
        /** The provider could not be asked where the payment stands. */
        PROVIDER_UNAVAILABLE
    }

    private final Why why;

    public PaymentRefusal(Why why, String detail) {
        super(detail, null, false, false);
        this.why = why;
    }

    public Why why() {
        return why;
    }
}
