package dev.seckill.voucher.web;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;

import dev.seckill.ratelimit.RateLimitSettings;
import dev.seckill.ratelimit.RedisRateLimiter;
import dev.seckill.refusal.Reason;
import dev.seckill.refusal.Refusal;
import dev.seckill.support.TestServers;
import dev.seckill.voucher.CreateVoucherRequest;
import dev.seckill.voucher.StockResetRequest;
import dev.seckill.voucher.VoucherService;
import dev.seckill.voucher.VoucherView;
import dev.seckill.web.WebSlice;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.mockito.ArgumentCaptor;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.MediaType;
import org.springframework.test.context.bean.override.mockito.MockitoBean;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.ResultActions;

import static dev.seckill.web.SliceAuth.admin;
import static dev.seckill.web.SliceAuth.shopper;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsInAnyOrder;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.ArgumentMatchers.startsWith;
import static org.mockito.BDDMockito.given;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.times;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.verifyNoInteractions;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.put;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/** {@code /admin/vouchers}: HTTP Basic (priced by the login limiter), validated bodies, the service's refusals. */
@WebSlice(VoucherAdminController.class)
class VoucherAdminControllerTest {

    static final String TIMES = "\"beginTime\":\"2026-11-22T10:00:00Z\",\"endTime\":\"2026-11-22T20:00:00+08:00\"";
    static final String VALID = "{\"title\":\"Half price\",\"price\":9.90,\"stock\":100," + TIMES + "}";

    @Autowired
    MockMvc mvc;

    /** The login limiter's Redis side, mocked by every slice: no address has spent its failures unless told. */
    @Autowired
    RedisRateLimiter loginFailures;

    @MockitoBean
    VoucherService vouchers;

    @Test
    void createsTheVoucherItWasSentAndSaysWhere() throws Exception {
        given(vouchers.create(any())).willReturn(new VoucherView(5, "Half price", null, new BigDecimal("9.90"), 100, 100,
                Instant.parse("2026-11-22T10:00:00Z"), Instant.parse("2026-11-22T12:00:00Z"), null, Duration.ofMinutes(15)));

        create(VALID, admin()).andExpect(status().isCreated()).andExpect(header().string("Location", "/admin/vouchers/5"))
                .andExpect(jsonPath("$.id").value(5)).andExpect(jsonPath("$.endTime").value("2026-11-22T12:00:00Z"));
        ArgumentCaptor<CreateVoucherRequest> sent = ArgumentCaptor.forClass(CreateVoucherRequest.class);
        verify(vouchers).create(sent.capture());
        assertThat(sent.getValue()).extracting(CreateVoucherRequest::title, CreateVoucherRequest::price, CreateVoucherRequest::stock)
                .containsExactly("Half price", new BigDecimal("9.90"), 100);
        assertThat(sent.getValue().endTime().toInstant()).isEqualTo(OffsetDateTime.parse("2026-11-22T20:00:00+08:00").toInstant());
    }

    @Test
    void noCredentialsAskForThem() throws Exception {
        create(VALID, null).andExpect(status().isUnauthorized())
                .andExpect(jsonPath("$.code").value("admin-credentials-missing"))
                .andExpect(header().string("WWW-Authenticate", "Basic realm=\"seckill-admin\""));
        // a shopper's token is no admin credential
        mvc.perform(get("/admin/vouchers/5").header("Authorization", shopper(42)))
                .andExpect(status().isUnauthorized()).andExpect(jsonPath("$.code").value("admin-credentials-missing"));
        verifyNoInteractions(vouchers);
    }

    @Test
    void aWrongPasswordIsRefusedAndCountedAgainstTheAddressAndUser() throws Exception {
        create(VALID, admin("guess")).andExpect(status().isUnauthorized())
                .andExpect(jsonPath("$.code").value("admin-credentials-invalid"));
        ArgumentCaptor<String> key = ArgumentCaptor.forClass(String.class);
        verify(loginFailures).tryAcquire(key.capture(), any(RateLimitSettings.Limit.class));
        assertThat(key.getValue()).startsWith("admin-login-failures:{127.0.0.1}:").doesNotContain(TestServers.ADMIN_USER);
        verify(loginFailures).isExhausted(key.getValue());
        verifyNoInteractions(vouchers);
    }

    @Test
    void aSpentAddressAndUserIsRefusedEvenWithTheRightPassword() throws Exception {
        given(loginFailures.isExhausted(startsWith("admin-login-failures:{127.0.0.1}:"))).willReturn(true);

        create(VALID, admin()).andExpect(status().isTooManyRequests()).andExpect(jsonPath("$.code").value("rate-limited"))
                .andExpect(header().string("Retry-After", "60"));
        verifyNoInteractions(vouchers);
    }

    @Test
    void aChangeFromABrowserNeedsThePagesCsrfToken() throws Exception {
        mvc.perform(post("/admin/vouchers").header("Authorization", admin()).header("Sec-Fetch-Site", "cross-site")
                .contentType(MediaType.APPLICATION_JSON).content(VALID))
                .andExpect(status().isForbidden()).andExpect(jsonPath("$.code").value("csrf-rejected"));
        verifyNoInteractions(vouchers);
    }

    /**
     * A browser sends the admin's cached login up front only below the page's folder: the new-voucher page's call
     * goes out bare first, and must get the Basic challenge (not a CSRF refusal) to be sent again with the login.
     */
    @Test
    void aBrowsersChangeWithoutCredentialsIsChallengedBeforeItsCsrfTokenIsChecked() throws Exception {
        mvc.perform(post("/admin/vouchers").header("Sec-Fetch-Site", "same-origin").header("X-XSRF-TOKEN", "any")
                .contentType(MediaType.APPLICATION_JSON).content(VALID))
                .andExpect(status().isUnauthorized()).andExpect(jsonPath("$.code").value("admin-credentials-missing"))
                .andExpect(header().string("WWW-Authenticate", "Basic realm=\"seckill-admin\""));
        verifyNoInteractions(vouchers);
    }

    @Test
    void anInvalidVoucherNamesEveryBadField() throws Exception {
        create("{\"title\":\" \",\"price\":1.001,\"stock\":-1," + TIMES + "}", admin())
                .andExpect(status().isBadRequest()).andExpect(jsonPath("$.code").value("validation-failed"))
                .andExpect(jsonPath("$.errors[*].field", containsInAnyOrder("title", "price", "stock")));
        create("{\"title\":\"Backwards\",\"price\":1,\"stock\":1,\"beginTime\":\"2030-01-01T00:00:00Z\","
                + "\"endTime\":\"2026-01-01T00:00:00Z\"}", admin())
                .andExpect(status().isBadRequest()).andExpect(jsonPath("$.errors[0].field").value("endAfterBegin"))
                .andExpect(jsonPath("$.errors[0].message").value("endTime must be after beginTime"));
        verifyNoInteractions(vouchers);
    }

    /** The voucher's own payment window: an ISO-8601 duration in, the same out; absent, the service chooses. */
    @Test
    void aPaymentWindowIsSentToTheServiceAndShownWithTheVoucher() throws Exception {
        given(vouchers.create(any())).willReturn(new VoucherView(5, "Half price", null, new BigDecimal("9.90"), 100, 100,
                Instant.parse("2026-11-22T10:00:00Z"), Instant.parse("2026-11-22T12:00:00Z"), null, Duration.ofSeconds(90)));
        given(vouchers.find(5)).willReturn(new VoucherView(5, "Half price", null, new BigDecimal("9.90"), 100, 100,
                Instant.parse("2026-11-22T10:00:00Z"), Instant.parse("2026-11-22T12:00:00Z"), null, Duration.ofSeconds(90)));

        create(VALID.replace("}", ",\"paymentWindow\":\"PT1M30S\"}"), admin()).andExpect(status().isCreated())
                .andExpect(jsonPath("$.paymentWindow").value("PT1M30S"));
        mvc.perform(get("/admin/vouchers/5").header("Authorization", admin()))
                .andExpect(status().isOk()).andExpect(jsonPath("$.paymentWindow").value("PT1M30S"));
        create(VALID, admin()).andExpect(status().isCreated());

        ArgumentCaptor<CreateVoucherRequest> sent = ArgumentCaptor.forClass(CreateVoucherRequest.class);
        verify(vouchers, times(2)).create(sent.capture());
        assertThat(sent.getAllValues()).extracting(CreateVoucherRequest::paymentWindow)
                .containsExactly(Duration.ofSeconds(90), null);
    }

    @ParameterizedTest
    @CsvSource({"PT9.999S, must be longer than or equal to 10 seconds", "PT0S, must be longer than or equal to 10 seconds",
            "-PT15M, must be longer than or equal to 10 seconds", "PT24H0.001S, must be shorter than or equal to 24 hours",
            "P2D, must be shorter than or equal to 24 hours"})
    void aPaymentWindowOutsideTenSecondsToADayIsRefusedByItsField(String window, String message) throws Exception {
        create(VALID.replace("}", ",\"paymentWindow\":\"" + window + "\"}"), admin())
                .andExpect(status().isBadRequest()).andExpect(jsonPath("$.code").value("validation-failed"))
                .andExpect(jsonPath("$.errors[0].field").value("paymentWindow"))
                .andExpect(jsonPath("$.errors[0].message").value(message));
        verifyNoInteractions(vouchers);
    }

    @ParameterizedTest
    @ValueSource(strings = {"\"15 minutes\"", "\"15m\"", "true"})
    void aPaymentWindowThatIsNoDurationIsMalformed(String window) throws Exception {
        create(VALID.replace("}", ",\"paymentWindow\":" + window + "}"), admin())
                .andExpect(status().isBadRequest()).andExpect(jsonPath("$.code").value("malformed-body"));
        verifyNoInteractions(vouchers);
    }

    @ParameterizedTest
    @ValueSource(strings = {"not json", "{\"title\":\"Typo\",\"prise\":1,\"stock\":1}", "{\"title\":\"T\",\"price\":\"cheap\"}"})
    void aBodyThatIsNoVoucherIsMalformed(String body) throws Exception {
        create(body, admin()).andExpect(status().isBadRequest()).andExpect(jsonPath("$.code").value("malformed-body"))
                .andExpect(jsonPath("$.detail").value("The body must be a JSON object with the documented fields and types"));
        verifyNoInteractions(vouchers);
    }

    @Test
    void anOversizedBodyIsRefusedBeforeAnyoneParsesIt() throws Exception {
        create("{\"title\":\"" + "x".repeat(20_000) + "\"}", admin())
                .andExpect(status().isPayloadTooLarge()).andExpect(jsonPath("$.code").value("body-too-large"));
        verifyNoInteractions(vouchers);
    }

    @Test
    void anUnknownVoucherIsNotFound() throws Exception {
        given(vouchers.find(987_654_321L)).willThrow(new Refusal(Reason.VOUCHER_NOT_FOUND, "No voucher with id 987654321"));

        mvc.perform(get("/admin/vouchers/987654321").header("Authorization", admin()))
                .andExpect(status().isNotFound()).andExpect(jsonPath("$.code").value("voucher-not-found"))
                .andExpect(jsonPath("$.detail").value("No voucher with id 987654321"));
        mvc.perform(get("/admin/vouchers/0").header("Authorization", admin()))
                .andExpect(status().isBadRequest()).andExpect(jsonPath("$.errors[0].field").value("voucherId"));
    }

    @ParameterizedTest
    @CsvSource({"ORDERS_PENDING, 409, orders-pending,", "VOUCHER_BUSY, 503, voucher-busy, 1"})
    void aStockResetTheServiceRefusesIsAnsweredWithItsProblem(Reason reason, int status, String code, String retryAfter)
            throws Exception {
        given(vouchers.resetStock(5, new StockResetRequest(10, true))).willThrow(new Refusal(reason));

        resetStock("{\"stock\":10,\"deleteOrders\":true}").andExpect(status().is(status))
                .andExpect(jsonPath("$.code").value(code)).andExpect(jsonPath("$.detail").value(reason.text()))
                .andExpect(retryAfter == null ? header().doesNotExist("Retry-After") : header().string("Retry-After", retryAfter));
    }

    @Test
    void aStockResetWithoutAStockFailsValidation() throws Exception {
        resetStock("{\"deleteOrders\":true}").andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.code").value("validation-failed")).andExpect(jsonPath("$.errors[0].field").value("stock"));
        verifyNoInteractions(vouchers);
        verify(loginFailures, never()).tryAcquire(anyString(), any());
    }

    private ResultActions create(String body, String authorization) throws Exception {
        var request = post("/admin/vouchers").contentType(MediaType.APPLICATION_JSON).content(body);
        return mvc.perform(authorization == null ? request : request.header("Authorization", authorization));
    }

    private ResultActions resetStock(String body) throws Exception {
        return mvc.perform(put("/admin/vouchers/5/stock").header("Authorization", admin())
                .contentType(MediaType.APPLICATION_JSON).content(body));
    }
}
