package dev.seckill.web.security;

import java.util.List;

import dev.seckill.support.TestServers;
import jakarta.servlet.http.Cookie;
import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.security.web.csrf.CsrfToken;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A CSRF cookie counts only when this server signed it for the credentials of the request that brings it back:
 * made-up values, another shopper's token, a pre-sign-in token after sign-in, another secret's token and anything
 * malformed are all "no token" (the filter then refuses the change), and none of them throws.
 */
class SignedCsrfTokensTest {

    final SignedCsrfTokens shop = new SignedCsrfTokens(TestServers.TOKEN_SECRET, SignedCsrfTokens.SHOPPER_COOKIE);

    @Test
    void aTokenIssuedForAShoppersCookieIsTakenBackWithThatCookieOnly() {
        CsrfToken issued = shop.generateToken(request("token-of-a", null));
        assertThat(issued.getToken()).matches("[A-Za-z0-9_-]{22}\\.[A-Za-z0-9_-]{43}");
        assertThat(issued.getHeaderName()).isEqualTo("X-XSRF-TOKEN");
        assertThat(issued.getParameterName()).isEqualTo("_csrf");

        assertThat(shop.loadToken(request("token-of-a", issued.getToken()))).isNotNull()
                .extracting(CsrfToken::getToken).isEqualTo(issued.getToken());
        assertThat(shop.loadToken(request("token-of-b", issued.getToken()))).as("another shopper").isNull();
        assertThat(shop.loadToken(request(null, issued.getToken()))).as("signed out").isNull();
    }

    @Test
    void aTokenIssuedBeforeSignInIsNotTakenAfterIt() {
        CsrfToken anonymous = shop.generateToken(request(null, null));
        assertThat(shop.loadToken(request(null, anonymous.getToken()))).isNotNull();
        assertThat(shop.loadToken(request("token-of-a", anonymous.getToken()))).isNull();
    }

    @Test
    void madeUpMalformedOrForeignTokensAreNoTokens() {
        String real = shop.generateToken(request("token-of-a", null)).getToken();
        String nonce = real.substring(0, real.indexOf('.'));
        String otherSecrets = new SignedCsrfTokens("another-secret-that-is-long-enough-0123456789",
                SignedCsrfTokens.SHOPPER_COOKIE).generateToken(request("token-of-a", null)).getToken();
        String adminSides = new SignedCsrfTokens(TestServers.TOKEN_SECRET, SignedCsrfTokens.ADMIN_LOGIN)
                .generateToken(request("token-of-a", null)).getToken();
        for (String forged : List.of("x", "00000000-0000-0000-0000-000000000000", nonce + ".", "." + real, real + ".",
                nonce + "." + "A".repeat(43), tamperedSignature(real),
                real + "A", nonce + ".%%%", nonce + ".{}", "a.b.c", "A".repeat(10_000) + ".", otherSecrets, adminSides)) {
            assertThat(shop.loadToken(request("token-of-a", forged))).as(forged).isNull();
        }
    }

    /**
     * The token with one character of its signature changed. Not the last one: of a 32-byte signature in 43 base64url
     * characters, the last carries two unused bits, and a change there alone can decode to the very same bytes.
     */
    private static String tamperedSignature(String token) {
        int at = token.indexOf('.') + 10;
        char changed = token.charAt(at) == 'A' ? 'B' : 'A';
        return token.substring(0, at) + changed + token.substring(at + 1);
    }

    @Test
    void theAdminSideBindsToTheBasicCredentials() {
        SignedCsrfTokens admin = new SignedCsrfTokens(TestServers.TOKEN_SECRET, SignedCsrfTokens.ADMIN_LOGIN);
        MockHttpServletRequest page = request(null, null);
        page.addHeader("Authorization", "Basic YWRtaW46cmlnaHQ=");
        String issued = admin.generateToken(page).getToken();

        MockHttpServletRequest same = request(null, issued);
        same.addHeader("Authorization", "Basic YWRtaW46cmlnaHQ=");
        assertThat(admin.loadToken(same)).isNotNull();
        MockHttpServletRequest other = request(null, issued);
        other.addHeader("Authorization", "Basic b3RoZXI6cGFzcw==");
        assertThat(admin.loadToken(other)).isNull();
        assertThat(admin.loadToken(request(null, issued))).as("no credentials").isNull();
    }

    @Test
    void savingWritesTheReadableCookieThePagesDoubleSubmit() {
        CsrfToken issued = shop.generateToken(request(null, null));
        MockHttpServletResponse response = new MockHttpServletResponse();
        shop.saveToken(issued, request(null, null), response);
        assertThat(response.getHeader("Set-Cookie")).startsWith("XSRF-TOKEN=" + issued.getToken() + ";")
                .doesNotContain("HttpOnly");
    }

    private static MockHttpServletRequest request(String shopperToken, String csrfCookie) {
        MockHttpServletRequest request = new MockHttpServletRequest("POST", "/shop/seckill/1");
        List<Cookie> cookies = new java.util.ArrayList<>();
        if (shopperToken != null) {
            cookies.add(new Cookie(ShopperCookie.NAME, shopperToken));
        }
        if (csrfCookie != null) {
            cookies.add(new Cookie("XSRF-TOKEN", csrfCookie));
        }
        if (!cookies.isEmpty()) {
            request.setCookies(cookies.toArray(Cookie[]::new));
        }
        return request;
    }
}
