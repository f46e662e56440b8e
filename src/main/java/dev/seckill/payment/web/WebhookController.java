package dev.seckill.payment.web;

import java.util.Map;

import dev.seckill.payment.PaymentRefusal;
import dev.seckill.payment.PaymentService;
import dev.seckill.payment.WebhookSignature;
import dev.seckill.web.ProblemCode;
import dev.seckill.web.ProblemResponses;
import dev.seckill.web.SeckillProblem;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RestController;

/**
 * The payment provider's notifications. No shopper or admin credentials: the signature over the raw body is the
 * credential, so the body is taken as the bytes that were signed, before any parsing. 2xx tells the provider to stop
 * delivering; a refusal (a problem) leaves it retrying, which changes nothing here either. A notification the
 * provider's own answer contradicts is no error of ours: it is answered 200 with what was done (nothing), or, while
 * the provider may still catch up, 409 payment-not-settled; never 5xx but when the provider (or our own database)
 * cannot be asked at all.
 */
@RestController
class WebhookController {

    private final PaymentService payments;

    WebhookController(PaymentService payments) {
        this.payments = payments;
    }

    @PostMapping(path = "/payments/webhook", consumes = MediaType.APPLICATION_JSON_VALUE)
    Map<String, String> receive(@RequestHeader(name = WebhookSignature.HEADER, required = false) String signature,
            @RequestBody String body) {
        return Map.of("outcome", payments.receive(signature, body));
    }

    @ExceptionHandler(PaymentRefusal.class)
    ResponseEntity<ProblemDetail> refused(PaymentRefusal refusal) {
        ProblemCode code = switch (refusal.why()) {
            case BAD_SIGNATURE -> ProblemCode.WEBHOOK_SIGNATURE_INVALID;
            case UNKNOWN_PAYMENT -> ProblemCode.PAYMENT_UNKNOWN;
            case AMOUNT_MISMATCH -> ProblemCode.PAYMENT_AMOUNT_MISMATCH;
            case MALFORMED -> ProblemCode.MALFORMED_BODY;
            case NOT_SETTLED -> ProblemCode.PAYMENT_NOT_SETTLED;
            case PROVIDER_UNAVAILABLE -> ProblemCode.PAYMENT_UNAVAILABLE;
        };
        return ProblemResponses.answer(new SeckillProblem(code, refusal.getMessage()));
    }
}
