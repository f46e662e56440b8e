package dev.seckill.sandbox;

/**
 * The notifications the sandbox sends, and the status each one reports for its payment: {@code payment.processing}
 * reports {@code PROCESSING}, a state the sandbox passes through within its paying transaction and never stores.
 */
enum EventType {
    PAYMENT_PROCESSING("payment.processing", "PROCESSING"),
    PAYMENT_SUCCEEDED("payment.succeeded", "PAID"),
    PAYMENT_CANCELED("payment.canceled", "CANCELED"),
    REFUND_SUCCEEDED("refund.succeeded", "REFUNDED");

    final String wireName;
    final String reportedStatus;

    EventType(String wireName, String reportedStatus) {
        this.wireName = wireName;
        this.reportedStatus = reportedStatus;
    }
}
