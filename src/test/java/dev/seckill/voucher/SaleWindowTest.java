package dev.seckill.voucher;

import java.time.Instant;

import dev.seckill.refusal.Reason;
import dev.seckill.refusal.Refusal;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SaleWindowTest {

    static final Instant BEGIN = Instant.parse("2026-11-22T10:00:00Z");
    static final Instant END = Instant.parse("2026-11-22T11:00:00Z");
    SaleWindow window = new SaleWindow(BEGIN, END);

    @Test
    void openFromBeginUntilJustBeforeEnd() {
        assertThatCode(() -> window.requireOpenAt(BEGIN)).doesNotThrowAnyException();
        assertThatCode(() -> window.requireOpenAt(END.minusMillis(1))).doesNotThrowAnyException();
    }

    @Test
    void notStartedBeforeBegin() {
        assertThatThrownBy(() -> window.requireOpenAt(BEGIN.minusMillis(1)))
                .isInstanceOfSatisfying(Refusal.class, p -> org.assertj.core.api.Assertions
                        .assertThat(p.reason()).isEqualTo(Reason.SALE_NOT_STARTED));
    }

    @Test
    void endedAtEnd() {
        assertThatThrownBy(() -> window.requireOpenAt(END))
                .isInstanceOfSatisfying(Refusal.class, p -> org.assertj.core.api.Assertions
                        .assertThat(p.reason()).isEqualTo(Reason.SALE_ENDED));
    }
}
