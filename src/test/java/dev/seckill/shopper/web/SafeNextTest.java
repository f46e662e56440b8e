package dev.seckill.shopper.web;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Where sign-in sends the shopper back: a path of this site as our pages spell them, and anything else (another
 * host however spelled, a scheme, a URI template, odd characters, a very long value) the sale list.
 */
class SafeNextTest {

    @ParameterizedTest
    @ValueSource(strings = {"/", "/sales/42", "/my/orders", "/sales/%31", "/a-b_c.d~e/"})
    void aPathOfThisSiteIsKept(String next) {
        assertThat(SignInPages.safeNext(next)).isEqualTo(next);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", " ", "sales/1", "//evil.example", "//evil.example/x", "/\\evil.example", "\\\\evil.example",
        "/\\/evil.example", "https://evil.example", "http:/evil.example", "javascript:alert(1)", "/{x}", "/sales/{id}", "{}",
        "/%", "/%zz", "/%2", "/sales/1?next=//evil.example", "/sales/1#x", "/x\r\nSet-Cookie: a=b", "/x y", "/\tevil",
        "/é", "/x;y", "/x@evil.example", " /sales/1", "///evil.example"})
    void anythingElseIsTheSaleList(String next) {
        assertThat(SignInPages.safeNext(next)).as(next).isEqualTo("/");
    }

    @ParameterizedTest
    @ValueSource(ints = {201, 10_000})
    void aVeryLongPathIsTheSaleList(int length) {
        assertThat(SignInPages.safeNext("/" + "a".repeat(length))).isEqualTo("/");
    }
}
