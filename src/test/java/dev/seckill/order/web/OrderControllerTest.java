package dev.seckill.order.web;

import java.time.Instant;

import dev.seckill.order.OrderSettlement;
import dev.seckill.order.OwnOrders;
import dev.seckill.order.OrderStatus;
import dev.seckill.order.OrderView;
import dev.seckill.ratelimit.ShopperRateLimits;
import dev.seckill.refusal.Reason;
import dev.seckill.refusal.Refusal;
import dev.seckill.support.Tokens;
import dev.seckill.web.SliceAuth;
import dev.seckill.web.WebSlice;
import dev.seckill.web.security.ShopperCookie;
import jakarta.servlet.http.Cookie;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.context.bean.override.mockito.MockitoBean;
import org.springframework.test.web.servlet.MockMvc;

import static dev.seckill.web.SliceAuth.shopper;
import static org.hamcrest.Matchers.startsWith;
import static org.mockito.ArgumentMatchers.anyLong;
import static org.mockito.BDDMockito.given;
import static org.mockito.BDDMockito.willThrow;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.verifyNoInteractions;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/** {@code GET /orders/{orderId}} and {@code GET /orders?voucherId=}: a shopper's own orders, behind a token and a limit. */
@WebSlice(OrderController.class)
class OrderControllerTest {

    static final long SHOPPER = 42;
    static final long ORDER = 118_324_446_380_449_792L;
    static final OrderView PENDING = new OrderView(ORDER, 7, OrderStatus.PENDING, Instant.parse("2026-11-22T09:59:59Z"),
            null, null);

    @Autowired
    MockMvc mvc;

    @MockitoBean
    OwnOrders queries;

    @MockitoBean
    ShopperRateLimits rateLimits;

    @MockitoBean
    OrderSettlement lifecycle;

    @Test
    void theShoppersOwnOrderWithItsIdAsAString() throws Exception {
        given(queries.findOwn(ORDER, SHOPPER)).willReturn(PENDING);

        mvc.perform(get("/orders/" + ORDER).header("Authorization", shopper(SHOPPER))).andExpect(status().isOk())
                .andExpect(jsonPath("$.orderId").value(Long.toString(ORDER)))
                .andExpect(jsonPath("$.voucherId").value(7))
                .andExpect(jsonPath("$.status").value("PENDING"));
        verify(rateLimits).requireOrderReadPermit(SHOPPER);
    }

    @Test
    void byVoucherForTheShopperTheTokenNames() throws Exception {
        given(queries.findOwnForVoucher(SHOPPER, 7)).willReturn(PENDING);

        mvc.perform(get("/orders").param("voucherId", "7").header("Authorization", shopper(SHOPPER)))
                .andExpect(status().isOk()).andExpect(jsonPath("$.orderId").value(Long.toString(ORDER)));
        verify(rateLimits).requireOrderReadPermit(SHOPPER);
    }

    @Test
    void anotherShoppersOrderOrNoneIsNotFound() throws Exception {
        given(queries.findOwn(ORDER, SHOPPER)).willThrow(new Refusal(Reason.ORDER_NOT_FOUND));

        mvc.perform(get("/orders/" + ORDER).header("Authorization", shopper(SHOPPER))).andExpect(status().isNotFound())
                .andExpect(header().string("Content-Type", "application/problem+json"))
                .andExpect(jsonPath("$.code").value("order-not-found"))
                .andExpect(jsonPath("$.instance").value("/orders/" + ORDER));
    }

    @Test
    void aShopperOverTheLimitIsToldWhenToComeBackAndNothingIsRead() throws Exception {
        willThrow(new Refusal(Reason.RATE_LIMITED, "At most 20 requests per 1s for this shopper", 2, 0))
                .given(rateLimits).requireOrderReadPermit(SHOPPER);

        mvc.perform(get("/orders/" + ORDER).header("Authorization", shopper(SHOPPER)))
                .andExpect(status().isTooManyRequests()).andExpect(jsonPath("$.code").value("rate-limited"))
                .andExpect(jsonPath("$.detail").value("At most 20 requests per 1s for this shopper"))
                .andExpect(header().string("Retry-After", "2"));
        verifyNoInteractions(queries);
    }

    @Test
    void noTokenNoOrders() throws Exception {
        mvc.perform(get("/orders/" + ORDER)).andExpect(status().isUnauthorized())
                .andExpect(jsonPath("$.code").value("token-missing"))
                .andExpect(header().string("WWW-Authenticate", "Bearer realm=\"seckill\""));
        mvc.perform(get("/orders").param("voucherId", "7").header("Authorization", "Bearer not-a-jwt"))
                .andExpect(status().isUnauthorized()).andExpect(jsonPath("$.code").value("token-invalid"));
        verifyNoInteractions(queries, rateLimits);
    }

    @ParameterizedTest
    @ValueSource(strings = {"0", "-5"})
    void anOrderIdBelowOneFailsValidationNamingTheParameter(String orderId) throws Exception {
        mvc.perform(get("/orders/" + orderId).header("Authorization", shopper(SHOPPER)))
                .andExpect(status().isBadRequest()).andExpect(jsonPath("$.code").value("validation-failed"))
                .andExpect(jsonPath("$.errors.length()").value(1))
                .andExpect(jsonPath("$.errors[0].field").value("orderId"))
                .andExpect(jsonPath("$.errors[0].message").isNotEmpty());
        verifyNoInteractions(queries, rateLimits);
    }

    @Test
    void aBadOrMissingVoucherIdIsRefusedBeforeAnythingIsRead() throws Exception {
        mvc.perform(get("/orders").param("voucherId", "0").header("Authorization", shopper(SHOPPER)))
                .andExpect(status().isBadRequest()).andExpect(jsonPath("$.code").value("validation-failed"))
                .andExpect(jsonPath("$.errors[0].field").value("voucherId"));
        mvc.perform(get("/orders").header("Authorization", shopper(SHOPPER)))
                .andExpect(status().isBadRequest()).andExpect(jsonPath("$.code").value("missing-parameter"));
        mvc.perform(get("/orders/abc").header("Authorization", shopper(SHOPPER)))
                .andExpect(status().isBadRequest()).andExpect(jsonPath("$.code").value("invalid-parameter"));
        verifyNoInteractions(queries, rateLimits);
    }

    @Test
    void thePagesScriptsReadTheTokenFromTheCookieOnly() throws Exception {
        given(queries.findOwn(ORDER, SHOPPER)).willReturn(PENDING);
        String token = Tokens.forTestInstances(Long.toString(SHOPPER), SliceAuth.NOW.plusSeconds(3600));

        mvc.perform(get("/shop/orders/" + ORDER).cookie(new Cookie(ShopperCookie.NAME, token)))
                .andExpect(status().isOk()).andExpect(jsonPath("$.status").value("PENDING"));
        mvc.perform(get("/shop/orders/" + ORDER).header("Authorization", shopper(SHOPPER)))
                .andExpect(status().isUnauthorized()).andExpect(jsonPath("$.code").value("token-missing"));
    }

    @Test
    void anExpiredCookieIsClearedAndSaysSo() throws Exception {
        String expired = Tokens.forTestInstances(Long.toString(SHOPPER), SliceAuth.NOW.minusSeconds(1));

        mvc.perform(get("/shop/orders/" + ORDER).cookie(new Cookie(ShopperCookie.NAME, expired)))
                .andExpect(status().isUnauthorized()).andExpect(jsonPath("$.code").value("token-expired"))
                .andExpect(header().string("Set-Cookie", startsWith(ShopperCookie.NAME + "=;")));
        verify(queries, never()).findOwn(anyLong(), anyLong());
    }
}
