package dev.seckill.sale.buying;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

import dev.seckill.sale.SaleMeters;
import dev.seckill.refusal.Reason;
import dev.seckill.refusal.Refusal;
import dev.seckill.sale.PlacedOrder;
import dev.seckill.sale.Sale;
import dev.seckill.web.security.CurrentShopper;
import dev.seckill.web.LateAnswer;
import dev.seckill.web.ProblemResponses;
import dev.seckill.web.Refusals;
import dev.seckill.web.SeckillProblem;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Positive;
import org.redisson.client.RedisTimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.MediaType;
import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code POST /seckill/{voucherId}}, with the shopper's purchase ticket in {@code Seckill-Ticket} when tickets are
 * asked (dev.seckill.sale.ticket). Sync mode answers 201 AWAITING_PAYMENT (the order is in MySQL); async
 * mode answers 202 PENDING (accepted and on its way: {@code GET /orders/{orderId}} follows it). A
 * refusal because the shopper already ordered names that order ({@code orderId}).
 * Its answers are written straight to the response: during a sale this endpoint takes nearly all the
 * traffic and most answers are refusals, and Spring MVC's exception resolution and message converters are
 * about half of a refusal's time (docs/benchmarks.md). The bodies are the same JSON the rest of the API
 * gives (ProblemResponses).
 * In async mode no request thread waits for Redis: the request is put in asynchronous mode and answered on
 * Redisson's I/O thread when the purchase script's call answers (Tomcat's thread goes back to its pool).
 * That costs less CPU per order than a thread that waits, and virtual threads (JDK 25) cost no less than
 * a waiting platform thread (scripts/cost, docs/benchmarks.md).
 */
@RestController
class SeckillController {

    private static final Logger log = LoggerFactory.getLogger(SeckillController.class);

    /**
     * The longest an order request waits for its answer: below Nginx's proxy_read_timeout (30 s), so that the
     * shopper gets this instance's 503, not Nginx's 504. The async path answers every order by its own deadline
     * (22 s, OrderEnqueue), knowing whether its call was sent (order-unconfirmed) or not (backend-unavailable);
     * this limit, which cannot know, is the last resort.
     */
    static final long ANSWER_TIMEOUT_MILLIS = 25_000;
    static final String IDEMPOTENCY_KEY = "Idempotency-Key";
    static final String REPLAYED = "Idempotent-Replayed";
    static final String TICKET = "Seckill-Ticket";

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
     * The replay keeps the first answer's status code and order, but its {@code status} is the order's state
     * now (PENDING while on its way, then AWAITING_PAYMENT, PAID, CANCELLED, EXPIRED or REFUNDED): a retry that
     * comes after the order was cancelled or expired is told so, not that it is on its way.
     */
    @PostMapping({"/seckill/{voucherId}", "/shop/seckill/{voucherId}"})
    void place(@PathVariable @Positive long voucherId,
            @RequestHeader(name = IDEMPOTENCY_KEY, required = false)
            @Pattern(regexp = "[\\x20-\\x7E]{1,64}", message = "Idempotency-Key must be 1 to 64 printable ASCII characters")
            String idempotencyKey,
            @RequestHeader(name = TICKET, required = false) String ticket,
            @AuthenticationPrincipal CurrentShopper shopper, HttpServletRequest request, HttpServletResponse response)
            throws IOException {
        long shopperId = shopper.id();
        CompletableFuture<PlacedOrder> placing;
        try {
            placing = sale.placeAsync(shopperId, voucherId, idempotencyKey != null, ticket);
        } catch (RuntimeException decidedAtOnce) {
            answerFailure(decidedAtOnce, voucherId, request, response);
            return;
        }
        if (placing.isDone()) {
            answer(placing, voucherId, request, response);
            return;
        }
        // No thread waits for Redis: the answer is written when the purchase script's call answers.
        LateAnswer late = LateAnswer.start(request, ANSWER_TIMEOUT_MILLIS, () -> answerQuietly(
                CompletableFuture.failedFuture(new RedisTimeoutException("No answer from Redis within "
                        + ANSWER_TIMEOUT_MILLIS + " ms")), voucherId, request, response));
        placing.whenComplete((placed, failure) -> late.decided(() -> answerQuietly(placing, voucherId, request, response)));
    }

    private void answerQuietly(CompletableFuture<PlacedOrder> placing, long voucherId, HttpServletRequest request,
            HttpServletResponse response) {
        try {
            answer(placing, voucherId, request, response);
        } catch (IOException | RuntimeException lost) {
            // The client went away, or the answer could not be written: nothing is left to tell anyone.
            log.debug("Could not write the answer to an order request for voucher {}: {}", voucherId, lost.toString());
        }
    }

    private void answer(CompletableFuture<PlacedOrder> placing, long voucherId, HttpServletRequest request,
            HttpServletResponse response) throws IOException {
        PlacedOrder placed;
        try {
            placed = placing.join();
        } catch (CompletionException e) {
            answerFailure(e.getCause() instanceof RuntimeException cause ? cause : e, voucherId, request, response);
            return;
        }
        if (placed.replayed()) {
            meters.replayed(voucherId);
        }
        String status = placed.statusNow() != null ? placed.statusNow().name()
                : asyncMode ? "PENDING" : "AWAITING_PAYMENT";
        byte[] body = ("{\"orderId\":\"" + placed.orderId() + "\",\"voucherId\":" + voucherId + ",\"status\":\""
                + status + "\"}").getBytes(StandardCharsets.US_ASCII);
        response.setStatus(asyncMode ? 202 : 201);
        if (placed.replayed()) {
            response.setHeader(REPLAYED, "true");
        }
        response.setContentType(MediaType.APPLICATION_JSON_VALUE);
        response.setContentLength(body.length);
        response.getOutputStream().write(body);
    }

    private void answerFailure(RuntimeException failure, long voucherId, HttpServletRequest request,
            HttpServletResponse response) throws IOException {
        if (failure instanceof Refusal refusal) {
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
        }
        // An outage or a bug: counted by the code it is answered with. Decided while the handler runs, it goes
        // to ApiExceptionHandler as any other exception; decided later, no handler is there to see it.
        meters.refused(voucherId, ProblemResponses.codeOf(failure).code());
        if (!request.isAsyncStarted()) {
            throw failure;
        }
        ProblemResponses.writeFailure(response, failure, request.getRequestURI());
    }
}
