package dev.seckill.web;

import java.util.EnumMap;
import java.util.Map;

import dev.seckill.refusal.Reason;

/**
 * What the API answers each {@link Reason} with, written out by hand (the API contract, as the integration
 * tests and the JMeter plans expect it) rather than read from the code under test: {@link Refusals} is
 * checked against it ({@code RefusalsTest}) and so is what {@code POST /seckill/{id}} sends
 * ({@code SeckillControllerTest}). A new reason fails both until its answer is added here.
 */
public final class RefusalAnswers {

    /** @param retryAfter the {@code Retry-After} a refusal without its own gets; null for none */
    public record Answer(int status, String code, String retryAfter) {
    }

    private static final Map<Reason, Answer> ANSWERS = new EnumMap<>(Map.ofEntries(
            Map.entry(Reason.VOUCHER_NOT_FOUND, new Answer(404, "voucher-not-found", null)),
            Map.entry(Reason.SALE_NOT_STARTED, new Answer(409, "sale-not-started", null)),
            Map.entry(Reason.SALE_ENDED, new Answer(409, "sale-ended", null)),
            Map.entry(Reason.SOLD_OUT, new Answer(409, "sold-out", null)),
            Map.entry(Reason.ALREADY_ORDERED, new Answer(409, "already-ordered", null)),
            Map.entry(Reason.REQUEST_IN_FLIGHT, new Answer(429, "request-in-flight", "1")),
            Map.entry(Reason.VOUCHER_BUSY, new Answer(503, "voucher-busy", "1")),
            Map.entry(Reason.ORDER_NOT_FOUND, new Answer(404, "order-not-found", null)),
            Map.entry(Reason.ORDERS_PENDING, new Answer(409, "orders-pending", null)),
            Map.entry(Reason.ORDER_UNCONFIRMED, new Answer(503, "order-unconfirmed", null)),
            Map.entry(Reason.RATE_LIMITED, new Answer(429, "rate-limited", "1")),
            Map.entry(Reason.ORDER_ON_ITS_WAY, new Answer(409, "order-on-its-way", null)),
            Map.entry(Reason.ORDER_PAID, new Answer(409, "order-paid", null)),
            Map.entry(Reason.ORDER_EXPIRED, new Answer(409, "order-expired", null)),
            Map.entry(Reason.ORDER_CANCELLED, new Answer(409, "order-cancelled", null)),
            Map.entry(Reason.ORDER_REFUNDED, new Answer(409, "order-refunded", null)),
            Map.entry(Reason.PAYMENT_UNAVAILABLE, new Answer(503, "payment-unavailable", "1")),
            Map.entry(Reason.TICKET_REQUIRED, new Answer(403, "ticket-required", null)),
            Map.entry(Reason.TICKET_INVALID, new Answer(403, "ticket-invalid", null)),
            Map.entry(Reason.CHALLENGE_REQUIRED, new Answer(403, "challenge-required", null)),
            Map.entry(Reason.CHALLENGE_INVALID, new Answer(403, "challenge-invalid", null)),
            Map.entry(Reason.CHALLENGE_SPENT, new Answer(409, "challenge-spent", null)),
            Map.entry(Reason.NO_WAITING_ROOM, new Answer(404, "no-waiting-room", null)),
            Map.entry(Reason.WAITING_ROOM_REQUIRED, new Answer(409, "waiting-room-required", null)),
            Map.entry(Reason.NOT_ADMITTED, new Answer(403, "not-admitted", null)),
            Map.entry(Reason.NOT_IN_WAITING_ROOM, new Answer(404, "not-in-waiting-room", null)),
            Map.entry(Reason.DRAW_NOT_YET, new Answer(409, "draw-not-yet", null)),
            Map.entry(Reason.ROOM_CLOSED, new Answer(409, "room-closed", null)),
            Map.entry(Reason.ARRIVAL_WINDOW_TOO_LONG, new Answer(400, "arrival-window-too-long", null))));

    private RefusalAnswers() {
    }

    /** The answer to this reason; fails for a reason nobody has written the answer of yet. */
    public static Answer to(Reason reason) {
        Answer answer = ANSWERS.get(reason);
        if (answer == null) {
            throw new AssertionError("No expected answer for " + reason + " in RefusalAnswers: add it");
        }
        return answer;
    }
}
