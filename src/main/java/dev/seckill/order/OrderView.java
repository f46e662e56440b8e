package dev.seckill.order;

import java.time.Instant;

import com.fasterxml.jackson.annotation.JsonFormat;

/** Order ids go out as strings: a 64-bit id does not survive a JavaScript number. */
public record OrderView(@JsonFormat(shape = JsonFormat.Shape.STRING) long orderId, long voucherId, OrderStatus status,
        Instant createdAt) {
}
