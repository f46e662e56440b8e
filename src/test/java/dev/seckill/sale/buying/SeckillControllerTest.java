package dev.seckill.sale.buying;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.stream.Stream;

import dev.seckill.order.OrderStatus;
import dev.seckill.sale.SaleMeters;
import dev.seckill.refusal.Reason;
import dev.seckill.refusal.Refusal;
import dev.seckill.sale.PlacedOrder;
import dev.seckill.sale.Sale;
import dev.seckill.support.Tokens;
import dev.seckill.web.RefusalAnswers;
import dev.seckill.web.RefusalAnswers.Answer;
import dev.seckill.web.SliceAuth;
import dev.seckill.web.WebSlice;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.redisson.client.RedisTimeoutException;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.test.context.bean.override.mockito.MockitoBean;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.MvcResult;
import org.springframework.test.web.servlet.ResultActions;

import static dev.seckill.web.SliceAuth.bearer;
import static dev.seckill.web.SliceAuth.shopper;
import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyBoolean;
import static org.mockito.ArgumentMatchers.anyLong;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.BDDMockito.given;
import static org.mockito.BDDMockito.willReturn;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.verifyNoInteractions;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.request;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * {@code POST /seckill/{voucherId}} in async mode (the mocked {@link Sale} does not confirm at once; sync mode's
 * 201 is {@link SeckillControllerSyncModeTest}): every answer the shopper can get, and the counter it lands in.
 */
@WebSlice(SeckillController.class)
class SeckillControllerTest {

    static final long SHOPPER = 42;
    static final long VOUCHER = 7;
    static final long ORDER = 118_324_446_380_449_792L;

    @Autowired
    MockMvc mvc;

    @MockitoBean
    Sale sale;

    @MockitoBean
    SaleMeters meters;

    @Test
    void anOrderDecidedLaterIsAnsweredWhenItsCallAnswersWithNoThreadWaiting() throws Exception {
        CompletableFuture<PlacedOrder> decision = new CompletableFuture<>();
        willReturn(decision).given(sale).placeAsync(SHOPPER, VOUCHER, false, null);

        MvcResult result = place(VOUCHER).andExpect(request().asyncStarted()).andReturn();
        assertThat(result.getResponse().getContentAsString()).as("nothing answered before Redis did").isEmpty();
        decision.complete(new PlacedOrder(ORDER, false));

        assertThat(result.getResponse().getStatus()).isEqualTo(202);
        assertThat(result.getResponse().getContentAsString())
                .isEqualTo("{\"orderId\":\"" + ORDER + "\",\"voucherId\":7,\"status\":\"PENDING\"}");
        assertThat(result.getRequest().isAsyncStarted()).as("the request was completed").isFalse();
    }

    @Test
    void aRefusalDecidedLaterIsItsProblemAndCounted() throws Exception {
        CompletableFuture<PlacedOrder> decision = new CompletableFuture<>();
        willReturn(decision).given(sale).placeAsync(SHOPPER, VOUCHER, false, null);

        MvcResult result = place(VOUCHER).andExpect(request().asyncStarted()).andReturn();
        decision.completeExceptionally(Refusal.alreadyOrdered(ORDER));

        assertThat(result.getResponse().getStatus()).isEqualTo(409);
        assertThat(result.getResponse().getContentType()).isEqualTo("application/problem+json");
        assertThat(result.getResponse().getContentAsString()).contains("\"code\":\"already-ordered\"")
                .contains("\"orderId\":\"" + ORDER + "\"");
        verify(meters).refused(VOUCHER, "already-ordered");
    }

    @ParameterizedTest
    @MethodSource("outages")
    void anOutageDecidedLaterIsBackendUnavailableAndABugAnInternalError(RuntimeException outage) throws Exception {
        CompletableFuture<PlacedOrder> decision = new CompletableFuture<>();
        CompletableFuture<PlacedOrder> bug = new CompletableFuture<>();
        willReturn(decision, bug).given(sale).placeAsync(SHOPPER, VOUCHER, false, null);

        MvcResult result = place(VOUCHER).andExpect(request().asyncStarted()).andReturn();
        decision.completeExceptionally(outage);
        assertThat(result.getResponse().getStatus()).isEqualTo(503);
        assertThat(result.getResponse().getHeader("Retry-After")).isEqualTo("1");
        assertThat(result.getResponse().getContentAsString()).contains("\"code\":\"backend-unavailable\"");
        verify(meters).refused(VOUCHER, "backend-unavailable");

        MvcResult broken = place(VOUCHER).andExpect(request().asyncStarted()).andReturn();
        bug.completeExceptionally(new IllegalStateException("secret internals"));
        assertThat(broken.getResponse().getStatus()).isEqualTo(500);
        assertThat(broken.getResponse().getContentAsString()).contains("\"code\":\"internal-error\"")
                .contains("Unexpected error; it was logged").doesNotContain("secret");
    }

    @Test
    void aPlacedOrderIsAcceptedAsPendingWithItsIdAsAString() throws Exception {
        given(sale.placeAsync(SHOPPER, VOUCHER, false, null))
                .willReturn(CompletableFuture.completedFuture(new PlacedOrder(ORDER, false)));

        place(VOUCHER).andExpect(status().isAccepted())
                .andExpect(content().json("{\"orderId\":\"" + ORDER + "\",\"voucherId\":7,\"status\":\"PENDING\"}", true))
                .andExpect(header().doesNotExist("Idempotent-Replayed"))
                .andExpect(header().string("X-Instance-Id", "web-slice"));
        verify(meters, never()).replayed(anyLong());
    }

    @Test
    void aReplayWithAnIdempotencyKeyIsMarkedAndCounted() throws Exception {
        given(sale.placeAsync(SHOPPER, VOUCHER, true, null))
                .willReturn(CompletableFuture.completedFuture(new PlacedOrder(ORDER, true)));

        placeWithKey("retry-1").andExpect(status().isAccepted())
                .andExpect(jsonPath("$.orderId").value(Long.toString(ORDER)))
                .andExpect(header().string("Idempotent-Replayed", "true"));
        verify(meters).replayed(VOUCHER);
    }

    @Test
    void aReplayNamesTheOrdersStateNowNotTheFirstAnswers() throws Exception {
        given(sale.placeAsync(SHOPPER, VOUCHER, true, null))
                .willReturn(CompletableFuture.completedFuture(new PlacedOrder(ORDER, true, OrderStatus.CANCELLED)));

        placeWithKey("retry-1").andExpect(status().isAccepted())
                .andExpect(content().json("{\"orderId\":\"" + ORDER + "\",\"voucherId\":7,\"status\":\"CANCELLED\"}", true))
                .andExpect(header().string("Idempotent-Replayed", "true"));
    }

    @ParameterizedTest
    @EnumSource(Reason.class)
    void everyRefusalIsAnsweredWithItsProblemAndCountedByItsCode(Reason reason) throws Exception {
        Answer answer = RefusalAnswers.to(reason);
        given(sale.placeAsync(SHOPPER, VOUCHER, false, null)).willThrow(new Refusal(reason, "because: " + reason));

        place(VOUCHER).andExpect(status().is(answer.status()))
                .andExpect(content().contentType("application/problem+json"))
                .andExpect(jsonPath("$.code").value(answer.code()))
                .andExpect(jsonPath("$.status").value(answer.status()))
                .andExpect(jsonPath("$.detail").value("because: " + reason))
                .andExpect(jsonPath("$.instance").value("/seckill/" + VOUCHER))
                .andExpect(jsonPath("$.orderId").doesNotExist())
                .andExpect(answer.retryAfter() == null ? header().doesNotExist("Retry-After")
                        : header().stringValues("Retry-After", answer.retryAfter()));

        if (reason == Reason.VOUCHER_NOT_FOUND) {
            // no voucher tag for an id anyone can make up
            verify(meters).refusedUnknownVoucher("voucher-not-found");
            verify(meters, never()).refused(anyLong(), anyString());
        } else if (reason == Reason.ORDER_UNCONFIRMED) {
            verifyNoInteractions(meters); // the order was taken: counted as accepted, not as a refusal
        } else {
            verify(meters).refused(VOUCHER, answer.code());
            verify(meters, never()).refusedUnknownVoucher(anyString());
        }
    }

    @Test
    void alreadyOrderedAndUnconfirmedNameTheShoppersOrderAsAString() throws Exception {
        given(sale.placeAsync(SHOPPER, VOUCHER, false, null)).willThrow(Refusal.alreadyOrdered(ORDER), Refusal.unconfirmed(ORDER, VOUCHER));

        place(VOUCHER).andExpect(status().isConflict()).andExpect(jsonPath("$.code").value("already-ordered"))
                .andExpect(jsonPath("$.orderId").isString()).andExpect(jsonPath("$.orderId").value(Long.toString(ORDER)));
        place(VOUCHER).andExpect(status().isServiceUnavailable()).andExpect(jsonPath("$.code").value("order-unconfirmed"))
                .andExpect(jsonPath("$.orderId").value(Long.toString(ORDER)));
    }

    @Test
    void aRefusalsOwnRetryAfterWinsOverTheCodesDefault() throws Exception {
        given(sale.placeAsync(SHOPPER, VOUCHER, false, null)).willThrow(new Refusal(Reason.RATE_LIMITED, "slow down", 3, 0));

        place(VOUCHER).andExpect(status().isTooManyRequests()).andExpect(header().stringValues("Retry-After", "3"));
    }

    static Stream<RuntimeException> outages() {
        return Stream.of(new DataAccessResourceFailureException("MySQL gone"), new RedisTimeoutException("no answer in 3000 ms"),
                new CompletionException(new RedisTimeoutException("late")));
    }

    @ParameterizedTest
    @MethodSource("outages")
    void anOutageIsBackendUnavailableNotABug(RuntimeException outage) throws Exception {
        given(sale.placeAsync(SHOPPER, VOUCHER, false, null)).willThrow(outage);

        place(VOUCHER).andExpect(status().isServiceUnavailable())
                .andExpect(jsonPath("$.code").value("backend-unavailable"))
                .andExpect(header().string("Retry-After", "1"));
        verify(meters).refused(VOUCHER, "backend-unavailable");
    }

    @Test
    void aBugIsAnInternalErrorThatSaysNothingOfItself() throws Exception {
        given(sale.placeAsync(SHOPPER, VOUCHER, false, null)).willThrow(new IllegalStateException("secret internals"));

        place(VOUCHER).andExpect(status().isInternalServerError()).andExpect(jsonPath("$.code").value("internal-error"))
                .andExpect(jsonPath("$.detail").value("Unexpected error; it was logged"));
        verify(meters).refused(VOUCHER, "internal-error");
    }

    @ParameterizedTest
    @CsvSource({"abc, invalid-parameter", "1.5, invalid-parameter", "99999999999999999999999, invalid-parameter",
        "0, validation-failed", "-1, validation-failed"})
    void aBadVoucherIdIsRefusedBeforeTheSale(String voucherId, String code) throws Exception {
        mvc.perform(post("/seckill/" + voucherId).header("Authorization", shopper(SHOPPER)))
                .andExpect(status().isBadRequest()).andExpect(jsonPath("$.code").value(code));
        verify(sale, never()).placeAsync(anyLong(), anyLong(), anyBoolean(), any());
    }

    @ParameterizedTest
    @MethodSource("badKeys")
    void aBadIdempotencyKeyFailsValidation(String key) throws Exception {
        placeWithKey(key).andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.code").value("validation-failed"))
                .andExpect(jsonPath("$.errors[0].field").value("idempotencyKey"));
        verify(sale, never()).placeAsync(anyLong(), anyLong(), anyBoolean(), any());
    }

    static Stream<String> badKeys() {
        return Stream.of("", "x".repeat(65), "k\u00e9y", "tab\there");
    }

    @Test
    void noTokenNoPurchase() throws Exception {
        mvc.perform(post("/seckill/" + VOUCHER)).andExpect(status().isUnauthorized())
                .andExpect(jsonPath("$.code").value("token-missing"))
                .andExpect(header().string("WWW-Authenticate", "Bearer realm=\"seckill\""));
        mvc.perform(post("/seckill/" + VOUCHER).header("Authorization", bearer(Tokens.forTestInstances("42",
                SliceAuth.NOW.minusSeconds(1))))).andExpect(jsonPath("$.code").value("token-expired"));
        mvc.perform(post("/seckill/" + VOUCHER).header("Authorization", bearer(Tokens.signed(
                "another-secret-that-is-long-enough-0123456789", "42", "seckill", SliceAuth.NOW.plusSeconds(60)))))
                .andExpect(status().isUnauthorized()).andExpect(jsonPath("$.code").value("token-invalid"));
        verify(sale, never()).placeAsync(anyLong(), anyLong(), anyBoolean(), any());
    }

    private ResultActions place(long voucherId) throws Exception {
        return mvc.perform(post("/seckill/" + voucherId).header("Authorization", shopper(SHOPPER)));
    }

    private ResultActions placeWithKey(String idempotencyKey) throws Exception {
        return mvc.perform(post("/seckill/" + VOUCHER).header("Authorization", shopper(SHOPPER))
                .header("Idempotency-Key", idempotencyKey));
    }
}
