package dev.seckill.sandbox.web;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Map;

import dev.seckill.sandbox.MerchantApi;
import dev.seckill.sandbox.MerchantApi.OpenRequest;
import dev.seckill.sandbox.SandboxPayment;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The provider's API, as the shop calls it: JSON over HTTP, each call carrying the shared secret as
 * {@code Authorization: Bearer <secret>}. An unknown payment is answered 200 with {@code UNKNOWN}, not 404, so that
 * the shop never reads a wrong route (a proxy's 404) as "no such payment": anything but 2xx means the provider could
 * not be asked.
 * <ul>
 * <li>{@code POST /sandbox/api/payments} {@code {"orderId":..,"amountCents":..,"payBy":"<ISO instant>"}}: 201
 *     {@code {"ref":"pay_..","checkoutUrl":".."}}; with an {@code Idempotency-Key} header used before, the payment
 *     that key opened (422 when it was for another order or amount)</li>
 * <li>{@code POST /sandbox/api/payments/<ref>/close}: {@code {"outcome":"CLOSED|ALREADY_PAID|UNKNOWN"}}</li>
 * <li>{@code POST /sandbox/api/payments/<ref>/refund} {@code {"amountCents":..}}:
 *     {@code {"outcome":"REFUNDED|NOT_PAID|UNKNOWN"}}, 422 when the amount is not what was paid</li>
 * <li>{@code GET /sandbox/api/payments/<ref>}: {@code {"ref":..,"state":"OPEN|PAID|CANCELED|CLOSED|REFUNDED|UNKNOWN"}}</li>
 * </ul>
 */
@RestController
@RequestMapping("/sandbox/api/payments")
class MerchantApiController {

    record RefundRequest(long amountCents) {
    }

    private final MerchantApi api;
    private final byte[] secret;

    MerchantApiController(MerchantApi api, @Value("${seckill.sandbox.api-secret}") String secret) {
        this.api = api;
        this.secret = secret.getBytes(StandardCharsets.UTF_8);
    }

    @PostMapping
    ResponseEntity<Map<String, String>> open(@RequestHeader(name = HttpHeaders.AUTHORIZATION, required = false)
            String authorization, @RequestHeader(name = "Idempotency-Key", required = false) String idempotencyKey,
            @RequestBody OpenRequest request) {
        authorize(authorization);
        if (request.payBy() == null) {
            throw new IllegalArgumentException("payBy is missing");
        }
        if (idempotencyKey != null && (idempotencyKey.isBlank() || idempotencyKey.length() > 128)) {
            throw new IllegalArgumentException("An Idempotency-Key is 1 to 128 characters");
        }
        SandboxPayment payment = api.open(request, idempotencyKey);
        return ResponseEntity.status(HttpStatus.CREATED)
                .body(Map.of("ref", payment.ref(), "checkoutUrl", api.checkoutUrl(payment).toString()));
    }

    @PostMapping("/{ref}/close")
    Map<String, String> close(@RequestHeader(name = HttpHeaders.AUTHORIZATION, required = false) String authorization,
            @PathVariable String ref) {
        authorize(authorization);
        return Map.of("outcome", api.close(ref).name());
    }

    @PostMapping("/{ref}/refund")
    Map<String, String> refund(@RequestHeader(name = HttpHeaders.AUTHORIZATION, required = false) String authorization,
            @PathVariable String ref, @RequestBody RefundRequest request) {
        authorize(authorization);
        return Map.of("outcome", api.refund(ref, request.amountCents()).name());
    }

    @GetMapping("/{ref}")
    Map<String, String> state(@RequestHeader(name = HttpHeaders.AUTHORIZATION, required = false) String authorization,
            @PathVariable String ref) {
        authorize(authorization);
        return Map.of("ref", ref, "state", api.find(ref).map(payment -> payment.status().name()).orElse("UNKNOWN"));
    }

    /** Compared in constant time, so that the answer's timing tells nothing of the secret. */
    private void authorize(String authorization) {
        byte[] given = authorization == null || !authorization.startsWith("Bearer ") ? new byte[0]
                : authorization.substring("Bearer ".length()).getBytes(StandardCharsets.UTF_8);
        if (!MessageDigest.isEqual(given, secret)) {
            throw new NotAuthorized();
        }
    }

    static final class NotAuthorized extends RuntimeException {
        NotAuthorized() {
            super("This call needs the shared secret: Authorization: Bearer <secret>", null, false, false);
        }
    }

    @ExceptionHandler(NotAuthorized.class)
    ResponseEntity<Map<String, String>> notAuthorized(NotAuthorized refused) {
        return ResponseEntity.status(HttpStatus.UNAUTHORIZED).body(Map.of("message", refused.getMessage()));
    }

    @ExceptionHandler(IllegalArgumentException.class)
    ResponseEntity<Map<String, String>> refused(IllegalArgumentException refused) {
        return ResponseEntity.status(HttpStatus.UNPROCESSABLE_ENTITY).body(Map.of("message", refused.getMessage()));
    }
}
