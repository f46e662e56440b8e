package dev.seckill.sandbox.web;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

import dev.seckill.sandbox.SandboxCheckout;
import dev.seckill.sandbox.SandboxCheckout.Outcome;
import dev.seckill.sandbox.SandboxPayment;
import dev.seckill.sandbox.SandboxStatus;
import org.springframework.http.HttpStatus;

/** What the checkout page answers, as HTML or JSON: a status, the payment (null when unknown) and a sentence. */
record CheckoutAnswer(HttpStatus status, String ref, SandboxPayment payment, String message, boolean justPaid,
        Instant now) {

    static final String PAY = "pay";
    static final String ABANDON = "abandon";

    static CheckoutAnswer show(SandboxCheckout checkout, String ref, Instant now) {
        return checkout.find(ref)
                .map(payment -> new CheckoutAnswer(HttpStatus.OK, ref, payment, describe(payment, now), false, now))
                .orElseGet(() -> unknown(ref, now));
    }

    static CheckoutAnswer act(SandboxCheckout checkout, String ref, String action, Instant now) {
        Optional<SandboxCheckout.Result> result;
        if (PAY.equals(action)) {
            result = checkout.pay(ref);
        } else if (ABANDON.equals(action)) {
            result = checkout.abandon(ref);
        } else {
            return new CheckoutAnswer(HttpStatus.BAD_REQUEST, ref, checkout.find(ref).orElse(null),
                    "Unknown action: send action=pay or action=abandon.", false, now);
        }
        if (result.isEmpty()) {
            return unknown(ref, now);
        }
        SandboxPayment payment = result.get().payment();
        return switch (result.get().outcome()) {
            case DONE -> new CheckoutAnswer(HttpStatus.OK, ref, payment, PAY.equals(action)
                    ? "Paid. The shop is told in a moment." : "Payment abandoned. Nothing was charged.",
                    PAY.equals(action), now);
            case TOO_LATE -> new CheckoutAnswer(HttpStatus.CONFLICT, ref, payment,
                    "The payment window closed at " + payment.payBy() + ": it can no longer be paid.", false, now);
            case NOT_OPEN -> new CheckoutAnswer(HttpStatus.CONFLICT, ref, payment, describe(payment, now), false, now);
        };
    }

    private static CheckoutAnswer unknown(String ref, Instant now) {
        return new CheckoutAnswer(HttpStatus.NOT_FOUND, ref, null, "No such payment.", false, now);
    }

    private static String describe(SandboxPayment payment, Instant now) {
        return switch (payment.status()) {
            case OPEN -> now.isBefore(payment.payBy()) ? "Waiting for your payment."
                    : "The payment window closed at " + payment.payBy() + ": it can no longer be paid.";
            case PAID -> "This payment is paid already.";
            case REFUNDED -> "This payment was paid, then refunded by the merchant.";
            case CLOSED -> "The merchant closed this payment: it can no longer be paid.";
            case CANCELED -> "This payment was abandoned: it can no longer be paid.";
        };
    }

    /** The form is offered only while paying can still work. */
    boolean payable() {
        return payment != null && payment.status() == SandboxStatus.OPEN && now.isBefore(payment.payBy());
    }

    Map<String, Object> model() {
        Map<String, Object> model = new LinkedHashMap<>();
        model.put("ref", ref);
        model.put("payment", payment);
        model.put("message", message);
        model.put("refused", status != HttpStatus.OK);
        model.put("payable", payable());
        model.put("justPaid", justPaid);
        if (payment != null) {
            model.put("amount", amount(payment.amountCents()));
            model.put("timeLeft", payable() ? timeLeft(Duration.between(now, payment.payBy())) : null);
        }
        return model;
    }

    Map<String, Object> json() {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("ref", ref);
        body.put("status", payment == null ? null : payment.status().name());
        if (status != HttpStatus.OK) {
            body.put("message", message);
        }
        return body;
    }

    static String amount(long cents) {
        return "¥" + cents / 100 + "." + String.format("%02d", cents % 100);
    }

    static String timeLeft(Duration left) {
        long seconds = Math.max(0, left.toSeconds());
        if (seconds >= 3600) {
            return seconds / 3600 + " h " + seconds % 3600 / 60 + " min";
        }
        return seconds >= 60 ? seconds / 60 + " min " + seconds % 60 + " s" : seconds + " s";
    }
}
