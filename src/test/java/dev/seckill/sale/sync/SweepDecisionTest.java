package dev.seckill.sale.sync;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Set;

import dev.seckill.salestate.SyncUnits.Unit;
import dev.seckill.salestate.SyncUnits.VoucherUnits;
import dev.seckill.sale.sync.SweepDecision.Action;
import dev.seckill.sale.sync.SweepDecision.Kind;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class SweepDecisionTest {

    static final Duration TIMEOUT = Duration.ofMinutes(2);
    static final Duration KEEP = Duration.ofHours(1);
    static final Instant START = Instant.parse("2026-11-23T10:00:00Z");

    final SweepDecision decision = new SweepDecision(TIMEOUT, KEEP);
    /** The sweeping instance's clock, moved by the tests. */
    Clock clock = Clock.fixed(START, ZoneOffset.UTC);

    void advance(Duration by) {
        clock = Clock.offset(clock, by);
    }

    static Unit unit(long orderId, long shopperId, Instant at) {
        return new Unit(orderId, shopperId, at.toEpochMilli());
    }

    static VoucherUnits held(Unit... units) {
        return new VoucherUnits(7, List.of(units), List.of());
    }

    static VoucherUnits returned(Unit... units) {
        return new VoucherUnits(7, List.of(), List.of(units));
    }

    @Test
    void aUnitHeldLessThanTheTimeoutIsLeftToItsRequestWithoutAskingMySql() {
        VoucherUnits units = held(unit(1, 11, START));
        advance(TIMEOUT.minusMillis(1));
        assertThat(decision.toLookUp(units, clock.millis())).isEmpty();
        // Even an order already in MySQL: its request settles it a moment later.
        assertThat(decision.decide(units, Set.of(1L), clock.millis())).isEmpty();
    }

    @Test
    void aUnitHeldLongerThanTheTimeoutIsReturnedWhenItsOrderIsNotInMySql() {
        Unit unit = unit(1, 11, START);
        advance(TIMEOUT);
        assertThat(decision.toLookUp(held(unit), clock.millis())).containsExactly(1L);
        assertThat(decision.decide(held(unit), Set.of(), clock.millis())).containsExactly(new Action(Kind.RETURN, unit));
    }

    @Test
    void aUnitHeldLongerThanTheTimeoutWhoseOrderCommittedIsSettledNeverReturned() {
        Unit unit = unit(1, 11, START);
        advance(TIMEOUT.plusSeconds(30));
        assertThat(decision.decide(held(unit), Set.of(1L), clock.millis())).containsExactly(new Action(Kind.SETTLE, unit));
    }

    @Test
    void onlyTheStaleUnitsOfAVoucherAreLookedUpAndDecided() {
        Unit old = unit(1, 11, START);
        advance(Duration.ofMinutes(1));
        Unit young = unit(2, 12, clock.instant());
        advance(Duration.ofMinutes(1));
        VoucherUnits units = held(old, young);
        assertThat(decision.toLookUp(units, clock.millis())).containsExactly(1L);
        assertThat(decision.decide(units, Set.of(), clock.millis())).containsExactly(new Action(Kind.RETURN, old));
    }

    @Test
    void aSweeperWhoseClockIsBehindTheTakersSeesTheUnitAsYoungerAndWaitsLonger() {
        Unit takenByAClockAhead = unit(1, 11, START.plusSeconds(60));
        advance(TIMEOUT);
        assertThat(decision.toLookUp(held(takenByAClockAhead), clock.millis())).isEmpty();
        advance(Duration.ofSeconds(60));
        assertThat(decision.toLookUp(held(takenByAClockAhead), clock.millis())).containsExactly(1L);
    }

    @Test
    void aReturnedUnitWhoseOrderCommittedAfterAllIsSettledSoItIsTakenAgain() {
        Unit unit = unit(1, 11, START);
        advance(Duration.ofSeconds(1));
        assertThat(decision.toLookUp(returned(unit), clock.millis())).containsExactly(1L);
        assertThat(decision.decide(returned(unit), Set.of(1L), clock.millis()))
                .containsExactly(new Action(Kind.SETTLE, unit));
    }

    @Test
    void aReturnedUnitIsRememberedForKeepReturnedThenForgotten() {
        Unit unit = unit(1, 11, START);
        advance(KEEP.minusMillis(1));
        assertThat(decision.decide(returned(unit), Set.of(), clock.millis())).isEmpty();
        advance(Duration.ofMillis(1));
        assertThat(decision.decide(returned(unit), Set.of(), clock.millis())).containsExactly(new Action(Kind.DROP, unit));
    }

    @Test
    void aVoucherLeavesTheRegistryOnlyWithoutRecordsAndATimeoutAfterItsSaleEnded() {
        Instant end = START;
        advance(TIMEOUT.minusMillis(1));
        assertThat(decision.canForget(held(), end, clock.instant())).isFalse();
        advance(Duration.ofMillis(1));
        assertThat(decision.canForget(held(), end, clock.instant())).isTrue();
        assertThat(decision.canForget(returned(unit(1, 11, START)), end, clock.instant())).isFalse();
        assertThat(decision.canForget(held(unit(1, 11, START)), end, clock.instant())).isFalse();
    }
}
