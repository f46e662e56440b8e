package dev.seckill.order.web;

import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

import dev.seckill.order.OrderStatus;
import dev.seckill.order.OrderView;

/**
 * A row of My orders: the order's state in words, the same words the pages' scripts use ({@code static/js/order.js}),
 * so that the page reads the same before and after a script touched it.
 */
public record OrderOnPage(OrderView order) {

    /** The server's time zone is no shopper's, so the page says which one it writes in. */
    private static final DateTimeFormatter PLACED_AT = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'")
            .withZone(ZoneOffset.UTC);

    public String placedAt() {
        return PLACED_AT.format(order.createdAt());
    }

    public boolean awaitingPayment() {
        return order.status() == OrderStatus.AWAITING_PAYMENT && order.secondsLeft() != null;
    }

    public String words() {
        return switch (order.status()) {
            case PENDING -> "On its way…";
            case AWAITING_PAYMENT -> awaitingPayment() ? "Awaiting payment — " + mmss(order.secondsLeft()) + " left"
                    : "Awaiting payment";
            case PAID -> "Paid";
            case EXPIRED -> "Expired — the payment window ran out; the unit went back on sale";
            case CANCELLED -> "Cancelled — the unit went back on sale";
            case REFUNDED -> "Refunded — your payment arrived after the order had ended and went back to you";
            case FAILED -> "Failed — the order could not be written, and the unit went back on sale";
        };
    }

    static String mmss(long seconds) {
        long s = Math.max(0, seconds);
        return String.format("%02d:%02d", s / 60, s % 60);
    }
}
