package dev.seckill.order.web;

import java.time.Instant;

import dev.seckill.order.OrderStatus;
import dev.seckill.order.OrderView;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** My orders says each state in words, and offers Pay and Cancel only while a window is open to pay in. */
class OrderOnPageTest {

    private static OrderOnPage row(OrderStatus status, Long secondsLeft) {
        Instant now = Instant.parse("2030-01-01T00:00:00Z");
        return new OrderOnPage(new OrderView(1, 2, status, now, secondsLeft == null ? null : now.plusSeconds(secondsLeft),
                secondsLeft));
    }

    @Test
    void anOrderAwaitingPaymentShowsItsTimeLeftAsMinutesAndSeconds() {
        assertThat(row(OrderStatus.AWAITING_PAYMENT, 872L).words()).isEqualTo("Awaiting payment — 14:32 left");
        assertThat(row(OrderStatus.AWAITING_PAYMENT, 5L).words()).isEqualTo("Awaiting payment — 00:05 left");
        assertThat(row(OrderStatus.AWAITING_PAYMENT, 0L).awaitingPayment()).isTrue();
        assertThat(row(OrderStatus.AWAITING_PAYMENT, 0L).placedAt()).isEqualTo("2030-01-01 00:00:00 UTC");
    }

    @Test
    void endedOrdersSayHowTheyEndedAndOfferNothing() {
        assertThat(row(OrderStatus.PAID, null).words()).isEqualTo("Paid");
        assertThat(row(OrderStatus.EXPIRED, null).words())
                .isEqualTo("Expired — the payment window ran out; the unit went back on sale");
        assertThat(row(OrderStatus.CANCELLED, null).words()).isEqualTo("Cancelled — the unit went back on sale");
        assertThat(row(OrderStatus.REFUNDED, null).words())
                .isEqualTo("Refunded — your payment arrived after the order had ended and went back to you");
        for (OrderStatus ended : new OrderStatus[] {OrderStatus.PAID, OrderStatus.EXPIRED, OrderStatus.CANCELLED,
                OrderStatus.REFUNDED}) {
            assertThat(row(ended, null).awaitingPayment()).as("%s", ended).isFalse();
        }
    }
}
