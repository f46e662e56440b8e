package dev.seckill.salestate;

import java.util.Map;

/** One accepted order as it travels through a voucher's order stream. */
public record QueuedOrder(String messageId, long voucherId, long orderId, long shopperId, long createdAtMillis) {

    static QueuedOrder of(long voucherId, String messageId, Map<String, String> fields) {
        return new QueuedOrder(messageId, voucherId, Long.parseLong(fields.get("order")),
                Long.parseLong(fields.get("shopper")), Long.parseLong(fields.get("at")));
    }
}
