package dev.seckill.web.security;

import dev.seckill.web.security.FastBearerTokenResolver;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.security.oauth2.server.resource.web.BearerTokenResolver;
import org.springframework.security.oauth2.server.resource.web.DefaultBearerTokenResolver;

import static org.assertj.core.api.Assertions.assertThat;

/** The fast resolver answers exactly as Spring Security's default one, tokens and errors alike. */
class FastBearerTokenResolverTest {

    final BearerTokenResolver fast = new FastBearerTokenResolver();
    final BearerTokenResolver reference = new DefaultBearerTokenResolver();

    @Test
    void agreesWithTheDefaultResolverOnHandPickedHeaders() {
        for (String header : new String[] {null, "", "Bearer", "Bearer ", "Bearer  abc", "bearer abc", "BEARER abc",
                "Bearer abc", "Bearer a.b.c", "Bearer abc==", "Bearer abc=d", "Bearer =", "Bearer abc ", " Bearer abc",
                "Bearer abc\n", "Bearer\tabc", "Basic YWRtaW46cHc=", "Bearerabc", "Bearer ab%c", "Bearer ab\u00e9c",
                "Bearer a-b._c~d+e/f", "Bearer \u212Aabc", "bearer\u0130 abc", "Token abc"}) {
            assertSameAnswer(header);
        }
    }

    @Test
    void agreesWithTheDefaultResolverOnRandomHeaders() {
        Random random = new Random(20261123);
        String alphabet = "aZ09-._~+/= \t\u00e9\u212A:,Bbearer";
        for (int i = 0; i < 20_000; i++) {
            StringBuilder header = new StringBuilder(random.nextBoolean() ? "Bearer " : random.nextBoolean() ? "bearer " : "");
            int length = random.nextInt(12);
            for (int c = 0; c < length; c++) {
                header.append(alphabet.charAt(random.nextInt(alphabet.length())));
            }
            assertSameAnswer(header.toString());
        }
    }

    private void assertSameAnswer(String header) {
        assertThat(answer(fast, header)).as("[%s]", header).isEqualTo(answer(reference, header));
    }

    /** The token, or the error's code and description, as a comparable list. */
    private static List<String> answer(BearerTokenResolver resolver, String header) {
        MockHttpServletRequest request = new MockHttpServletRequest("POST", "/seckill/1");
        if (header != null) {
            request.addHeader("Authorization", header);
        }
        List<String> answer = new ArrayList<>();
        try {
            answer.add("token:" + resolver.resolve(request));
        } catch (org.springframework.security.oauth2.core.OAuth2AuthenticationException e) {
            answer.add("error:" + e.getError().getErrorCode() + ":" + e.getError().getDescription());
        }
        return answer;
    }
}
