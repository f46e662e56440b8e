package dev.seckill.order;

import java.time.Duration;
import java.time.Instant;

import com.fasterxml.jackson.annotation.JsonFormat;
import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * An order as its shopper sees it. Order ids go out as strings: a 64-bit id does not survive a JavaScript number.
 *
 * @param payBy       until when it may be paid (AWAITING_PAYMENT and after); null while on its way (PENDING)
 * @param secondsLeft for an order AWAITING_PAYMENT, the seconds left to pay, by the server's clock when it answered
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record OrderView(@JsonFormat(shape = JsonFormat.Shape.STRING) long orderId, long voucherId, OrderStatus status,
        Instant createdAt, Instant payBy, Long secondsLeft) {

    /** An order not in MySQL yet: no window to pay in so far. */
    static OrderView onItsWay(long orderId, long voucherId, OrderStatus status, Instant createdAt) {
        return new OrderView(orderId, voucherId, status, createdAt, null, null);
    }

    static OrderView inMySql(long orderId, long voucherId, OrderStatus status, Instant createdAt, Instant payBy,
            Instant now) {
        Long left = status == OrderStatus.AWAITING_PAYMENT && payBy != null
                ? Math.max(0, Duration.between(now, payBy).toSeconds()) : null;
        return new OrderView(orderId, voucherId, status, createdAt, payBy, left);
    }
}
