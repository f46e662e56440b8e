package dev.seckill.sale.internal;

import java.util.Map;

import dev.seckill.SeckillSettings.Mode;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ModeLeftoversTest {

    @Test
    void syncModeRefusesWhileAsyncOrdersArePending() {
        ModeLeftovers left = new ModeLeftovers(Map.of(7L, 3L, 8L, 0L), Map.of());

        assertThat(left.warningFor(Mode.SYNC)).hasValueSatisfying(reason -> assertThat(reason)
                .contains("{7=3}").contains("seckill.mode=async").doesNotContain("8="));
        assertThat(left.warningFor(Mode.ASYNC)).as("async mode writes them itself").isEmpty();
    }

    @Test
    void asyncModeRefusesWhileSyncUnitsAreHeld() {
        ModeLeftovers left = new ModeLeftovers(Map.of(), Map.of(5L, 2, 6L, 0));

        assertThat(left.warningFor(Mode.ASYNC)).hasValueSatisfying(reason -> assertThat(reason)
                .contains("{5=2}").contains("seckill.mode=sync"));
        assertThat(left.warningFor(Mode.SYNC)).as("sync mode sweeps them itself").isEmpty();
    }

    @Test
    void nothingLeftStartsEitherMode() {
        ModeLeftovers left = new ModeLeftovers(Map.of(1L, 0L), Map.of(1L, 0));

        assertThat(left.warningFor(Mode.SYNC)).isEmpty();
        assertThat(left.warningFor(Mode.ASYNC)).isEmpty();
    }
}
