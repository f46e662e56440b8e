package dev.seckill.lab;

import java.util.Arrays;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class LockLabExpectationsTest {

    @Test
    void everyRunTheLabOffersHasItsArticlesExpectation() {
        assertThat(Arrays.stream(Strategy.values()).flatMap(strategy -> Arrays.stream(Fault.values())
                .filter(strategy::takes).map(fault -> strategy.id() + "/" + fault.id())))
                .hasSize(27)
                .allSatisfy(run -> assertThat(LockLabExpectations.of(run)).as(run)
                        .isNotSameAs(LockLabExpectations.UNWRITTEN));
    }

    @Test
    void theVerdictComparesTheCountsWithTheExpectation() {
        LockLabExpectations.Expected pause = LockLabExpectations.of("set-nx-px-owner-lua/pause");
        assertThat(pause.verdict(row("pause", 115, 65, 526, 0, "no", 0))).isEqualTo("agrees");
        // the owner check was expected to keep others' locks: one deleted is a disagreement
        assertThat(pause.verdict(row("pause", 115, 65, 526, 3, "no", 0))).isEqualTo("DISAGREES");

        LockLabExpectations.Expected none = LockLabExpectations.of("setnx-then-expire/none");
        assertThat(none.verdict(row("none", 50, 0, 0, 0, "no", 0))).isEqualTo("agrees");
        assertThat(none.verdict(row("none", 50, 0, 83, 10, "no", 0))).isEqualTo("DISAGREES");

        assertThat(LockLabExpectations.of("setnx-del/crash-holding").verdict(row("crash-holding", 19, 0, 0, 0, "forever", 0)))
                .isEqualTo("agrees");
        assertThat(LockLabExpectations.of("redisson-fenced/pause").verdict(row("pause", 50, 0, 456, 0, "no", 5)))
                .isEqualTo("agrees");
        assertThat(LockLabExpectations.of("redisson-multilock/node-down").verdict(row("node-down", 0, 0, 0, 0, "no", 0)))
                .isEqualTo("agrees");
    }

    @Test
    void paragraphsAreFilledToTheWidthWithoutBreakingAWord() {
        String wrapped = LockLabReport.wrap("word ".repeat(60).trim());
        assertThat(wrapped.lines()).allSatisfy(line -> assertThat(line.length()).isLessThanOrEqualTo(118));
        assertThat(wrapped.replace('\n', ' ').trim()).isEqualTo("word ".repeat(60).trim());
    }

    private static LockLabRow row(String fault, long deducted, long lost, long overlaps, long deletedAnothers,
            String stuck, long fenced) {
        return new LockLabRow("s", fault, 50, deducted, Math.max(0, deducted - 50), lost, overlaps, 1, deletedAnothers,
                0, stuck, 0, 0, fenced, 0, 0, 0, 100, 0, 0);
    }
}
