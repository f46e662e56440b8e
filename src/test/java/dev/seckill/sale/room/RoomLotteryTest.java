package dev.seckill.sale.room;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The lottery's numbers and commitment are the published rule's: the expected values were computed apart from this
 * code, with Python's hashlib, as {@code scripts/room-draw} computes them.
 */
class RoomLotteryTest {

    static final String SEED = "00".repeat(32);

    @Test
    void aNumberIsTheFirst52BitsOfTheSeedAndShopperHashed() {
        assertThat(RoomLottery.number(SEED, 1)).isEqualTo(1_420_447_545_588L);
        assertThat(RoomLottery.number(SEED, 42)).isEqualTo(261_912_280_830_063L);
        // Ids above 2^53: the id is hashed as its decimal digits, never through a double.
        assertThat(RoomLottery.number(SEED, 9_007_199_254_740_993L)).isEqualTo(522_482_303_281_609L);
    }

    @Test
    void everyNumberFitsASortedSetScoreExactly() {
        for (long shopper = 1; shopper < 10_000; shopper++) {
            long number = RoomLottery.number("ab".repeat(32), shopper);
            assertThat(number).isBetween(0L, (1L << 52) - 1);
            assertThat((long) (double) number).isEqualTo(number);
        }
    }

    @Test
    void theCommitmentIsTheSeedsHash() {
        assertThat(RoomLottery.commitment(SEED)).isEqualTo("60e05bd1b195af2f94112fa7197a5c88289058840ce7c6df9693756bc6250f55");
    }
}
