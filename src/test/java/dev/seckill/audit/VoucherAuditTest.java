package dev.seckill.audit;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class VoucherAuditTest {

    @Test
    void aSoldOutSaleAddsUp() {
        VoucherAudit audit = VoucherAudit.of(1, 100, 0, 0L, 100, 100, 0, 0, 0, 0);
        assertThat(audit.oversold()).isZero();
        assertThat(audit.consistent()).isTrue();
    }

    @Test
    void moreOrdersThanStockIsOversold() {
        VoucherAudit audit = VoucherAudit.of(1, 100, 0, 0L, 103, 103, 0, 0, 0, 0);
        assertThat(audit.oversold()).isEqualTo(3);
        assertThat(audit.consistent()).isFalse();
    }

    @Test
    void negativeStockIsOversold() {
        assertThat(VoucherAudit.of(1, 100, -2, -2L, 100, 100, 0, 0, 0, 0).oversold()).isEqualTo(2);
    }

    @Test
    void duplicateBuyersOrAMismatchedCacheAreInconsistent() {
        assertThat(VoucherAudit.of(1, 100, 0, 0L, 100, 99, 1, 0, 0, 0).consistent()).isFalse();
        assertThat(VoucherAudit.of(1, 100, 0, 1L, 100, 100, 0, 0, 0, 0).consistent()).isFalse();
        assertThat(VoucherAudit.of(1, 100, 0, null, 100, 100, 0, 0, 0, 0).consistent()).isFalse();
    }

    @Test
    void ordersOnTheirWayExplainWhyRedisIsLowerThanMySql() {
        VoucherAudit audit = VoucherAudit.of(1, 100, 40, 10L, 60, 60, 0, 30, 0, 0);
        assertThat(audit.redisAgrees()).isTrue();
        assertThat(audit.consistent()).isTrue();
        assertThat(VoucherAudit.of(1, 100, 40, 10L, 60, 60, 0, 29, 0, 0).consistent()).isFalse();
    }

    @Test
    void stockThatLeftWithoutAnOrderIsInconsistent() {
        assertThat(VoucherAudit.of(1, 100, 10, 10L, 89, 89, 0, 0, 0, 0).consistent()).isFalse();
    }
}
