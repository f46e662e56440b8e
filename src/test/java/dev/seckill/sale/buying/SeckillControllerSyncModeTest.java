package dev.seckill.sale.buying;

import java.util.concurrent.CompletableFuture;

import dev.seckill.sale.SaleMeters;
import dev.seckill.sale.PlacedOrder;
import dev.seckill.sale.Sale;
import dev.seckill.web.WebSlice;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.test.context.bean.override.mockito.MockitoBean;
import org.springframework.test.web.servlet.MockMvc;

import static dev.seckill.web.SliceAuth.shopper;
import static org.mockito.BDDMockito.given;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.verify;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * Sync mode: the {@link Sale} confirms at once, so a placed order is 201 AWAITING_PAYMENT. The controller asks the
 * sale once, when it is built, so the mock here answers before the context creates the controller (a
 * {@code @MockitoBean} would be stubbed only after).
 */
@WebSlice(SeckillController.class)
class SeckillControllerSyncModeTest {

    @TestConfiguration(proxyBeanMethods = false)
    static class ConfirmingSale {

        @Bean
        Sale sale() {
            Sale sale = mock(Sale.class);
            given(sale.confirmsAtOnce()).willReturn(true);
            given(sale.placeAsync(42, 7, false, null))
                    .willReturn(CompletableFuture.completedFuture(new PlacedOrder(118_324_446_380_449_792L, false)));
            given(sale.placeAsync(42, 7, true, null))
                    .willReturn(CompletableFuture.completedFuture(new PlacedOrder(118_324_446_380_449_792L, true)));
            return sale;
        }
    }

    @Autowired
    MockMvc mvc;

    @MockitoBean
    SaleMeters meters;

    @Test
    void aPlacedOrderAwaitsItsPayment() throws Exception {
        mvc.perform(post("/seckill/7").header("Authorization", shopper(42))).andExpect(status().isCreated())
                .andExpect(content().contentType("application/json"))
                .andExpect(content().json("{\"orderId\":\"118324446380449792\",\"voucherId\":7,\"status\":\"AWAITING_PAYMENT\"}", true))
                .andExpect(header().doesNotExist("Idempotent-Replayed"));
    }

    @Test
    void aReplayIsTheFirstAnswerAgainMarkedAsSuch() throws Exception {
        mvc.perform(post("/seckill/7").header("Authorization", shopper(42)).header("Idempotency-Key", "retry-1"))
                .andExpect(status().isCreated())
                .andExpect(content().json("{\"orderId\":\"118324446380449792\",\"voucherId\":7,\"status\":\"AWAITING_PAYMENT\"}", true))
                .andExpect(header().string("Idempotent-Replayed", "true"));
        verify(meters).replayed(7);
    }
}
