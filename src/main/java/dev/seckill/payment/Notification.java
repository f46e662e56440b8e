package dev.seckill.payment;

/**
 * A provider's notification, as its webhook delivers it: {@code {"id":"evt_…","type":"payment.succeeded",
 * "created":…,"payment":{"ref":"pay_…","orderId":"…","amountCents":1999,"status":"PAID"}}}.
 */
public record Notification(String id, String type, long created, Body payment) {

    public record Body(String ref, String orderId, long amountCents, String status) {
    }

    public static final String PROCESSING = "payment.processing";
    public static final String SUCCEEDED = "payment.succeeded";
    public static final String CANCELED = "payment.canceled";
    public static final String REFUNDED = "refund.succeeded";
}
