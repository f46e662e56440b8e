package dev.seckill.sale.room;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class RoomOddsTest {

    @Test
    void tooFewEndedAdmissionsGiveNoOdds() {
        assertThat(RoomOdds.ofATurn(10, 2, 50, RoomOdds.MIN_ENDED - 1, 5)).isNull();
    }

    @Test
    void everyoneBuyingLeavesNothingForAPlaceBeyondTheUnitsAndNobodyBuyingLeavesEverything() {
        assertThat(RoomOdds.ofATurn(10, 2, 50, 100, 100)).isEqualTo(0.0);
        assertThat(RoomOdds.ofATurn(10, 2, 50, 100, 0)).isEqualTo(1.0);
    }

    @Test
    void theChanceIsTheBinomialsOfFewerBuyersThanUnits() {
        // 1 unit, 2 before it, half buy: the turn comes when neither buys, 1/4.
        assertThat(RoomOdds.ofATurn(1, 1, 1, 40, 20)).isCloseTo(0.25, within(1e-12));
        // 2 units, 3 before, buying at 0.5: P(X <= 1) = (1 + 3) / 8.
        assertThat(RoomOdds.ofATurn(2, 0, 3, 40, 20)).isCloseTo(0.5, within(1e-12));
    }

    @Test
    void theNormalDistributionFunctionIsRightToSixPlaces() {
        assertThat(RoomOdds.normal(0)).isCloseTo(0.5, within(1e-7));
        assertThat(RoomOdds.normal(1.96)).isCloseTo(0.9750021, within(1e-6));
        assertThat(RoomOdds.normal(-1)).isCloseTo(0.1586553, within(1e-6));
    }

    @Test
    void beyondTheExactSumTheApproximationStaysCloseToIt() {
        // 80 before, 4/5 buy; P(X <= 63) and P(X <= 64) for Binomial(80, 0.8) summed in Python with math.comb:
        // 0.433625 (64 units, summed here too) and 0.544525 (65 units, approximated here).
        assertThat(RoomOdds.ofATurn(64, 0, 80, 50, 40)).isCloseTo(0.433625, within(1e-6));
        assertThat(RoomOdds.ofATurn(65, 0, 80, 50, 40)).isCloseTo(0.544525, within(0.02));
    }

    @Test
    void aPlaceFarBackInALargeRoomGetsAFiniteSmallChanceNotAnUnderflow() {
        // 500 units, 19,000 before, 90 % buy: about 17,100 buyers expected, far beyond 500.
        Double far = RoomOdds.ofATurn(500, 100, 18_900, 400, 360);
        assertThat(far).isNotNull().isBetween(0.0, 1e-6);
        // Just past the units with few buying: nearly certain.
        assertThat(RoomOdds.ofATurn(500, 100, 420, 400, 40)).isGreaterThan(0.999);
        // The middle: 600 before, 500 units, 5/6 buy: mean 500 buyers, about an even chance.
        assertThat(RoomOdds.ofATurn(500, 100, 500, 600, 500)).isBetween(0.4, 0.6);
    }
}
