package dev.seckill.web;

import java.util.EnumMap;
import java.util.Map;

import dev.seckill.refusal.Reason;
import dev.seckill.refusal.Refusal;

/** The one mapping from the sale's refusals to the API's problem codes (and so to HTTP statuses). */
public final class Refusals {

    private static final Map<Reason, ProblemCode> CODES = codesByReason();

    private Refusals() {
    }

    /** Every reason's code, read from {@link ProblemCode}: a reason with no code, or two, fails the class's loading. */
    static Map<Reason, ProblemCode> codesByReason() {
        Map<Reason, ProblemCode> codes = new EnumMap<>(Reason.class);
        for (ProblemCode code : ProblemCode.values()) {
            if (code.reason() != null && codes.put(code.reason(), code) != null) {
                throw new IllegalStateException("Two problem codes answer " + code.reason() + ": "
                        + codes.get(code.reason()) + " and another; each reason needs exactly one");
            }
        }
        for (Reason reason : Reason.values()) {
            if (!codes.containsKey(reason)) {
                throw new IllegalStateException("No problem code answers " + reason + ": add one to ProblemCode naming it");
            }
        }
        return codes;
    }

    public static ProblemCode codeOf(Reason reason) {
        return CODES.get(reason);
    }

    /** The problem a refusal is answered with; the order it names travels as {@code orderId} (a string). */
    public static SeckillProblem problemOf(Refusal refusal) {
        Map<String, String> properties = refusal.orderId() > 0 ? Map.of("orderId", Long.toString(refusal.orderId())) : Map.of();
        return new SeckillProblem(codeOf(refusal.reason()), refusal.getMessage(), refusal.retryAfterSeconds(), properties);
    }
}
