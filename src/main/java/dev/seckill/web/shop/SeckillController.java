package dev.seckill.web.shop;

import dev.seckill.seckill.PlacedOrder;
import dev.seckill.seckill.Sale;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

import dev.seckill.metrics.SaleMeters;
import dev.seckill.security.CurrentShopper;
import dev.seckill.refusal.Reason;
import dev.seckill.refusal.Refusal;
import dev.seckill.web.Refusals;
import dev.seckill.web.ProblemResponses;
import dev.seckill.web.SeckillProblem;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Positive;
import org.springframework.http.MediaType;
import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code POST /seckill/{voucherId}}. Sync mode answers 201 CONFIRMED (the order is in MySQL); async
 * mode answers 202 PENDING (accepted and on its way: {@code GET /orders/{orderId}} follows it). A
 * refusal because the shopper already ordered names that order ({@code orderId}).
 * Its answers are written straight to the response: during a sale this endpoint takes nearly all the
 * traffic and most answers are refusals, and with JFR half of each refusal's time went to Spring MVC's
 * exception resolution and message converters (docs/benchmarks.md). The bodies are the same JSON the
 * rest of the API gives (ProblemResponses, checked by SeckillAnswersIT).
 */
@RestController
public class SeckillController {

    static final String IDEMPOTENCY_KEY = "Idempotency-Key";
    static final String REPLAYED = "Idempotent-Replayed";

    private final Sale sale;
    private final boolean asyncMode;
    private final SaleMeters meters;

    SeckillController(Sale sale, SaleMeters meters) {
        this.sale = sale;
        this.meters = meters;
        this.asyncMode = !sale.confirmsAtOnce();
    }

    /**
     * {@code Idempotency-Key} (optional, 1-64 printable ASCII characters): a client that lost an answer
     * sends the request again with the same key and gets the first answer again (202 or 201 with the
     * same order id, marked {@code Idempotent-Replayed: true}) instead of already-ordered.
     * <p>
     * The key is checked but not stored. A shopper holds at most one order of a voucher, so the only
     * success a request of theirs can ever have had is that order, and it is found from the shopper
     * and the voucher alone (the already-ordered path, sold-out too). The key scopes itself: the
     * lookup is by this shopper and this voucher. What storing keys would add is telling a repeated
     * key from a new one, and both deserve the same truthful answer, the shopper's order. A refusal
     * changed nothing, so a retry after one is decided afresh (it may succeed now), as a first try
     * would be; and a retry after the order was given up (FAILED, its unit back) may buy again.
     * The replayed body says what the first said (PENDING in async mode even if MySQL has it by now):
     * {@code GET /orders/{orderId}} tells the current state.
     */
    @PostMapping({"/seckill/{voucherId}", "/shop/seckill/{voucherId}"})
    void place(@PathVariable @Positive long voucherId,
            @RequestHeader(name = IDEMPOTENCY_KEY, required = false)
            @Pattern(regexp = "[\\x20-\\x7E]{1,64}", message = "Idempotency-Key must be 1 to 64 printable ASCII characters")
            String idempotencyKey,
            @AuthenticationPrincipal CurrentShopper shopper, HttpServletRequest request, HttpServletResponse response)
            throws IOException {
        boolean replayable = idempotencyKey != null;
        PlacedOrder placed;
        try {
            placed = sale.place(shopper.id(), voucherId, replayable);
        } catch (Refusal refusal) {
            // The one place every refusal passes (already-ordered too): counted by the code the shopper gets.
            // order-unconfirmed is no refusal: the order was taken, and counted as accepted.
            SeckillProblem problem = Refusals.problemOf(refusal);
            if (refusal.reason() == Reason.VOUCHER_NOT_FOUND) {
                meters.refusedUnknownVoucher(problem.code().code());
            } else if (refusal.reason() != Reason.ORDER_UNCONFIRMED) {
                meters.refused(voucherId, problem.code().code());
            }
            ProblemResponses.write(response, problem, request.getRequestURI());
            return;
        } catch (RuntimeException failure) {
            // An outage or a bug, answered by ApiExceptionHandler: counted by the code it will answer with.
            meters.refused(voucherId, ProblemResponses.codeOf(failure).code());
            throw failure;
        }
        if (placed.replayed()) {
            meters.replayed(voucherId);
        }
        byte[] body = ("{\"orderId\":\"" + placed.orderId() + "\",\"voucherId\":" + voucherId + ",\"status\":\""
                + (asyncMode ? "PENDING" : "CONFIRMED") + "\"}").getBytes(StandardCharsets.US_ASCII);
        response.setStatus(asyncMode ? 202 : 201);
        if (placed.replayed()) {
            response.setHeader(REPLAYED, "true");
        }
        response.setContentType(MediaType.APPLICATION_JSON_VALUE);
        response.setContentLength(body.length);
        response.getOutputStream().write(body);
    }
}
