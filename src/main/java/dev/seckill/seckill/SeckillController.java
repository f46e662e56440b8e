package dev.seckill.seckill;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

import dev.seckill.SeckillSettings;
import dev.seckill.security.CurrentShopper;
import dev.seckill.web.ProblemResponses;
import dev.seckill.web.SeckillProblem;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.validation.constraints.Positive;
import org.springframework.http.MediaType;
import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code POST /seckill/{voucherId}}. Sync mode answers 201 CONFIRMED (the order is in MySQL); async
 * mode answers 202 PENDING (accepted and on its way: {@code GET /orders/{orderId}} follows it).
 * Its answers are written straight to the response: during a sale this endpoint takes nearly all the
 * traffic and most answers are refusals, and with JFR half of each refusal's time went to Spring MVC's
 * exception resolution and message converters (docs/benchmarks.md). The bodies are the same JSON the
 * rest of the API gives (ProblemResponses, checked by SeckillAnswersIT).
 */
@RestController
class SeckillController {

    private final SeckillService sync;
    private final AsyncSeckillService async;
    private final boolean asyncMode;

    SeckillController(SeckillService sync, AsyncSeckillService async, SeckillSettings settings) {
        this.sync = sync;
        this.async = async;
        this.asyncMode = settings.async();
    }

    @PostMapping("/seckill/{voucherId}")
    void place(@PathVariable @Positive long voucherId, @AuthenticationPrincipal CurrentShopper shopper, HttpServletRequest request,
            HttpServletResponse response) throws IOException {
        long orderId;
        try {
            orderId = asyncMode ? async.placeOrder(shopper.id(), voucherId) : sync.placeOrder(shopper.id(), voucherId);
        } catch (SeckillProblem refusal) {
            ProblemResponses.write(response, refusal, request.getRequestURI());
            return;
        }
        byte[] body = ("{\"orderId\":\"" + orderId + "\",\"voucherId\":" + voucherId + ",\"status\":\""
                + (asyncMode ? "PENDING" : "CONFIRMED") + "\"}").getBytes(StandardCharsets.US_ASCII);
        response.setStatus(asyncMode ? 202 : 201);
        response.setContentType(MediaType.APPLICATION_JSON_VALUE);
        response.setContentLength(body.length);
        response.getOutputStream().write(body);
    }
}
