package dev.seckill.web;

import java.util.Map;

import dev.seckill.refusal.Reason;
import dev.seckill.refusal.Refusal;

/** The one mapping from the sale's refusals to the API's problem codes (and so to HTTP statuses). */
public final class Refusals {

    private Refusals() {
    }

    /** Exhaustive: a new reason does not compile until it has its answer here. */
    public static ProblemCode codeOf(Reason reason) {
        return switch (reason) {
            case VOUCHER_NOT_FOUND -> ProblemCode.VOUCHER_NOT_FOUND;
            case SALE_NOT_STARTED -> ProblemCode.SALE_NOT_STARTED;
            case SALE_ENDED -> ProblemCode.SALE_ENDED;
            case SOLD_OUT -> ProblemCode.SOLD_OUT;
            case ALREADY_ORDERED -> ProblemCode.ALREADY_ORDERED;
            case REQUEST_IN_FLIGHT -> ProblemCode.REQUEST_IN_FLIGHT;
            case VOUCHER_BUSY -> ProblemCode.VOUCHER_BUSY;
            case ORDER_NOT_FOUND -> ProblemCode.ORDER_NOT_FOUND;
            case ORDERS_PENDING -> ProblemCode.ORDERS_PENDING;
            case ORDER_UNCONFIRMED -> ProblemCode.ORDER_UNCONFIRMED;
            case RATE_LIMITED -> ProblemCode.RATE_LIMITED;
            case ORDER_ON_ITS_WAY -> ProblemCode.ORDER_ON_ITS_WAY;
            case ORDER_PAID -> ProblemCode.ORDER_PAID;
            case ORDER_EXPIRED -> ProblemCode.ORDER_EXPIRED;
            case ORDER_CANCELLED -> ProblemCode.ORDER_CANCELLED;
            case ORDER_REFUNDED -> ProblemCode.ORDER_REFUNDED;
            case PAYMENT_UNAVAILABLE -> ProblemCode.PAYMENT_UNAVAILABLE;
            case TICKET_REQUIRED -> ProblemCode.TICKET_REQUIRED;
            case TICKET_INVALID -> ProblemCode.TICKET_INVALID;
            case CHALLENGE_REQUIRED -> ProblemCode.CHALLENGE_REQUIRED;
            case CHALLENGE_INVALID -> ProblemCode.CHALLENGE_INVALID;
            case CHALLENGE_SPENT -> ProblemCode.CHALLENGE_SPENT;
        };
    }

    /** The problem a refusal is answered with; the order it names travels as {@code orderId} (a string). */
    public static SeckillProblem problemOf(Refusal refusal) {
        Map<String, String> properties = refusal.orderId() > 0 ? Map.of("orderId", Long.toString(refusal.orderId())) : Map.of();
        return new SeckillProblem(codeOf(refusal.reason()), refusal.getMessage(), refusal.retryAfterSeconds(), properties);
    }
}
