package dev.seckill.sale.durability;

import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Where the marker's copies go on a Redis Cluster: every master owning enough contiguous slots holds one. */
class EpochMarkersTest {

    @Test
    void everyRunOfTwoWindowsLessOneSlotsHoldsACopy() {
        List<Integer> slots = EpochMarkers.copyKeys("seckill:epoch").stream().map(KeySlot::of).sorted().toList();
        assertThat(slots).hasSize(KeySlot.SLOTS / EpochMarkers.WINDOW).doesNotHaveDuplicates();
        int run = 2 * EpochMarkers.WINDOW - 1;
        for (int first = 0; first + run <= KeySlot.SLOTS; first++) {
            int from = first;
            assertThat(slots).as("a copy in slots %d-%d", from, from + run - 1)
                    .anyMatch(slot -> slot >= from && slot < from + run);
        }
    }

    @Test
    void theCopiesAreTheSameOnEveryInstance() {
        assertThat(EpochMarkers.copyKeys("seckill:epoch")).isEqualTo(EpochMarkers.copyKeys("seckill:epoch"))
                .allMatch(key -> key.startsWith("seckill:epoch:{c"));
    }
}
