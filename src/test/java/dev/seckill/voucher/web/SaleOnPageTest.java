package dev.seckill.voucher.web;

import java.math.BigDecimal;
import java.time.Instant;

import dev.seckill.voucher.VoucherView;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** A sold-out sale says so, and says whether unpaid orders may still give units back. */
class SaleOnPageTest {

    private static SaleOnPage sale(int stock, long awaitingPayment) {
        Instant begin = Instant.parse("2030-01-01T00:00:00Z");
        return new SaleOnPage(new VoucherView(1, "t", null, BigDecimal.ONE, stock, 100, begin, begin.plusSeconds(60), null, null),
                awaitingPayment);
    }

    @Test
    void aSaleWithUnitsLeftHasNoSoldOutWords() {
        assertThat(sale(3, 0).soldOut()).isFalse();
        assertThat(sale(3, 0).soldOutWords()).isNull();
    }

    @Test
    void aSoldOutSaleNamesTheUnpaidOrdersThatMayGiveUnitsBack() {
        assertThat(sale(0, 0).soldOutWords()).isEqualTo("Sold out");
        assertThat(sale(0, 1).soldOutWords()).isEqualTo("Sold out · units may come back (1 unpaid order)");
        assertThat(sale(0, 7).soldOutWords()).isEqualTo("Sold out · units may come back (7 unpaid orders)");
    }
}
