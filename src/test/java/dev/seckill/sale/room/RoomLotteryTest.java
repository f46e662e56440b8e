package dev.seckill.sale.room;

import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The lottery's numbers, entrants' hash and commitment are the published rule's: the expected values were computed
 * apart from this code, with Python's hashlib, as {@code scripts/room-draw} computes them.
 */
class RoomLotteryTest {

    static final String SEED = "00".repeat(32);
    /** Sorted as strings: 1, 10, 42, 9007199254740993 (an id above 2^53: hashed as its digits, never a double). */
    static final List<String> ENTRANTS = List.of("42", "1", "9007199254740993", "10");
    static final String ENTRANTS_HASH = "8499098d0442859fae1564de56e36ead810ec26d075240f52c3f2b77dea0d67f";

    @Test
    void theEntrantsHashIsTheirSortedIdsOneALine() {
        assertThat(RoomLottery.entrantsHash(ENTRANTS)).isEqualTo(ENTRANTS_HASH);
        assertThat(RoomLottery.entrantsHash(List.of("10", "9007199254740993", "1", "42"))).as("in any order")
                .isEqualTo(ENTRANTS_HASH);
        assertThat(RoomLottery.entrantsHash(List.of()))
                .isEqualTo("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    }

    @Test
    void aNumberIsTheFirst52BitsOfTheSeedTheEntrantsAndTheShopperHashed() {
        assertThat(RoomLottery.number(SEED, ENTRANTS_HASH, 1)).isEqualTo(2_354_587_648_598_775L);
        assertThat(RoomLottery.number(SEED, ENTRANTS_HASH, 42)).isEqualTo(1_843_676_611_521_875L);
        assertThat(RoomLottery.number(SEED, ENTRANTS_HASH, 9_007_199_254_740_993L)).isEqualTo(598_189_046_886_306L);
    }

    @Test
    void oneMoreEntrantChangesEveryNumber() {
        String withOneMore = RoomLottery.entrantsHash(List.of("42", "1", "9007199254740993", "10", "11"));
        assertThat(RoomLottery.number(SEED, withOneMore, 1)).isEqualTo(1_083_752_865_300_359L);
    }

    @Test
    void everyNumberFitsASortedSetScoreExactly() {
        String hash = RoomLottery.entrantsHash(List.of("7"));
        for (long shopper = 1; shopper < 10_000; shopper++) {
            long number = RoomLottery.number("ab".repeat(32), hash, shopper);
            assertThat(number).isBetween(0L, (1L << 52) - 1);
            assertThat((long) (double) number).isEqualTo(number);
        }
    }

    @Test
    void theCommitmentIsTheSeedsHash() {
        assertThat(RoomLottery.commitment(SEED)).isEqualTo("60e05bd1b195af2f94112fa7197a5c88289058840ce7c6df9693756bc6250f55");
    }
}
