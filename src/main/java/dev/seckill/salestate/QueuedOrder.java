package dev.seckill.salestate;

/** One accepted order as it travels through a voucher's order stream. */
public record QueuedOrder(String messageId, long voucherId, long orderId, long shopperId, long createdAtMillis) {
}
