package dev.seckill.sale.audit;

import java.time.Instant;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class VoucherAuditTest {

    @Test
    void aSoldOutSaleAddsUp() {
        VoucherAudit audit = VoucherAudit.of(1, 100, 0, 0L, 100, 100, 0, 0, 0, 0, 0, null);
        assertThat(audit.oversold()).isZero();
        assertThat(audit.consistent()).isTrue();
    }

    @Test
    void moreOrdersThanStockIsOversold() {
        VoucherAudit audit = VoucherAudit.of(1, 100, 0, 0L, 103, 103, 0, 0, 0, 0, 0, null);
        assertThat(audit.oversold()).isEqualTo(3);
        assertThat(audit.consistent()).isFalse();
    }

    @Test
    void negativeStockIsOversold() {
        assertThat(VoucherAudit.of(1, 100, -2, -2L, 100, 100, 0, 0, 0, 0, 0, null).oversold()).isEqualTo(2);
    }

    @Test
    void duplicateBuyersOrAMismatchedCacheAreInconsistent() {
        assertThat(VoucherAudit.of(1, 100, 0, 0L, 100, 99, 1, 0, 0, 0, 0, null).consistent()).isFalse();
        assertThat(VoucherAudit.of(1, 100, 0, 1L, 100, 100, 0, 0, 0, 0, 0, null).consistent()).isFalse();
        assertThat(VoucherAudit.of(1, 100, 0, null, 100, 100, 0, 0, 0, 0, 0, null).consistent()).isFalse();
    }

    @Test
    void ordersOnTheirWayExplainWhyRedisIsLowerThanMySql() {
        VoucherAudit audit = VoucherAudit.of(1, 100, 40, 10L, 60, 60, 0, 30, 0, 0, 0, null);
        assertThat(audit.redisAgrees()).isTrue();
        assertThat(audit.consistent()).isTrue();
        assertThat(VoucherAudit.of(1, 100, 40, 10L, 60, 60, 0, 29, 0, 0, 0, null).consistent()).isFalse();
    }

    @Test
    void unitsHeldBySyncRequestsExplainWhyRedisIsLowerThanMySql() {
        VoucherAudit audit = VoucherAudit.of(1, 100, 40, 37L, 60, 60, 0, 0, 3, 0, 0, null);
        assertThat(audit.syncUnitsInFlight()).isEqualTo(3);
        assertThat(audit.redisAgrees()).isTrue();
        assertThat(audit.consistent()).isTrue();
        // A unit leaked (taken, no record of it any more) or not taken again: Redis disagrees.
        assertThat(VoucherAudit.of(1, 100, 40, 37L, 60, 60, 0, 0, 2, 0, 0, null).consistent()).isFalse();
        assertThat(VoucherAudit.of(1, 100, 40, 40L, 60, 60, 0, 0, 3, 0, 0, null).redisAgrees()).isFalse();
    }

    @Test
    void aSaleThatLivedThroughARedisDataLossIsNeverConsistentHoweverWellItsNumbersAddUp() {
        Instant lost = Instant.parse("2026-11-23T10:00:00Z");
        VoucherAudit audit = VoucherAudit.of(1, 100, 0, 0L, 100, 100, 0, 0, 0, 0, 0, lost);
        assertThat(audit.redisAgrees()).isTrue();
        assertThat(audit.redisDataLost()).isTrue();
        assertThat(audit.redisDataLostAt()).isEqualTo(lost);
        assertThat(audit.consistent()).isFalse();
        assertThat(VoucherAudit.of(1, 100, 0, 0L, 100, 100, 0, 0, 0, 0, 0, null).redisDataLost()).isFalse();
    }

    @Test
    void stockThatLeftWithoutAnOrderIsInconsistent() {
        assertThat(VoucherAudit.of(1, 100, 10, 10L, 89, 89, 0, 0, 0, 0, 0, null).consistent()).isFalse();
    }

    @Test
    void anOrderCommittedButNotYetAcknowledgedIsCountedOnceAndStillReportedPending() {
        // 40 accepted: 30 in MySQL and acknowledged, 7 committed a moment ago and still pending, 3 on their way.
        VoucherAudit settling = VoucherAudit.of(1, 100, 63, 60L, 37, 37, 0, 10, 0, 0, 0, null, 7);
        assertThat(settling.pendingOrders()).isEqualTo(10);
        assertThat(settling.redisAgrees()).isTrue();
        assertThat(settling.consistent()).isTrue();
        // Counted twice (in MySQL's stock and as pending), the same numbers would not add up.
        assertThat(VoucherAudit.of(1, 100, 63, 60L, 37, 37, 0, 10, 0, 0, 0, null, 0).redisAgrees()).isFalse();
    }

    @Test
    void aFailoverLeavesTheSaleWholeOnlyWhenEveryInstanceReplayedAndNothingWasLost() {
        Instant at = Instant.parse("2026-11-26T06:00:00Z");
        VoucherAudit.Lifecycle holding = VoucherAudit.Lifecycle.allHolding(100);
        VoucherAudit whole = VoucherAudit.of(1, 100, 0, 0L, 100, 100, 0, 0, 0, 0, 0, null, 0, holding, at,
                new VoucherAudit.Failover(true, 12, 0, 0, 0), 0);
        assertThat(whole.redisFailedOver()).isTrue();
        assertThat(whole.redisFailoverAt()).isEqualTo(at);
        assertThat(whole.consistent()).as("every order put back, every instance replayed").isTrue();

        // The same counts, but an instance alive at the failover never replayed: it may have taken orders with it.
        assertThat(VoucherAudit.of(1, 100, 0, 0L, 100, 100, 0, 0, 0, 0, 0, null, 0, holding, at,
                new VoucherAudit.Failover(false, 12, 0, 0, 0), 0).consistent()).isFalse();
        // Counts that add up in Redis and MySQL, because the lost orders are in neither: never consistent.
        assertThat(VoucherAudit.of(1, 100, 3, 3L, 97, 97, 0, 0, 0, 0, 0, null, 0, VoucherAudit.Lifecycle.allHolding(97),
                at, new VoucherAudit.Failover(true, 0, 3, 0, 0), 0).consistent()).isFalse();
        assertThat(VoucherAudit.of(1, 100, 0, 0L, 100, 100, 0, 0, 0, 0, 0, null, 0, holding, at,
                new VoucherAudit.Failover(true, 0, 0, 1, 0), 0).consistent()).isFalse();

        VoucherAudit never = VoucherAudit.of(1, 100, 0, 0L, 100, 100, 0, 0, 0, 0, 0, null);
        assertThat(never.redisFailedOver()).isFalse();
        assertThat(never.failover()).isNull();
    }

    @Test
    void ordersAFreshSaleDeletedAreNotTheSalesAndNeverConsistentWhenTheyAreBack() {
        Instant at = Instant.parse("2026-11-26T06:00:00Z");
        VoucherAudit.Lifecycle none = VoucherAudit.Lifecycle.allHolding(0);
        VoucherAudit leftOut = VoucherAudit.of(1, 300, 300, 300L, 0, 0, 0, 0, 0, 0, 0, null, 0, none, at,
                new VoucherAudit.Failover(true, 0, 0, 0, 200), 0);
        assertThat(leftOut.consistent()).as("the replay left the old sale's orders out, as the admin meant").isTrue();

        // The same orders written back, their units taken in both stores: the numbers add up, the sale is not whole.
        VoucherAudit.Lifecycle back = VoucherAudit.Lifecycle.allHolding(200);
        VoucherAudit revived = VoucherAudit.of(1, 300, 100, 100L, 200, 200, 0, 0, 0, 0, 0, null, 0, back, at,
                new VoucherAudit.Failover(true, 200, 0, 0, 0), 200);
        assertThat(revived.redisAgrees()).isTrue();
        assertThat(revived.oversold()).isZero();
        assertThat(revived.revivedOrders()).isEqualTo(200);
        assertThat(revived.consistent()).isFalse();
    }
}
