package dev.seckill.web;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CanonicalNumbersTest {

    @ParameterizedTest
    @ValueSource(strings = {"0", "16", "-3", "9223372036854775807"})
    void theOneSpellingIsRead(String text) {
        assertThat(CanonicalNumbers.parseLong(text)).isEqualTo(Long.parseLong(text));
    }

    @ParameterizedTest
    @ValueSource(strings = {"016", "+16", "0x10", "#10", "\u0661\u0666", " 16", "16 ", "1e1", "", "-0",
        "9223372036854775808", "00"})
    void everyOtherSpellingIsRefused(String text) {
        assertThatThrownBy(() -> CanonicalNumbers.parseLong(text)).isInstanceOf(IllegalArgumentException.class);
    }
}
