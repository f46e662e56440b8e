package dev.seckill.web.security;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Base64;

import org.junit.jupiter.api.Test;
import org.springframework.security.oauth2.core.OAuth2Error;
import org.springframework.security.oauth2.jwt.BadJwtException;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.jwt.JwtDecoder;
import org.springframework.security.oauth2.jwt.JwtException;
import org.springframework.security.oauth2.jwt.JwtValidationException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Issuing and checking shopper JWTs, on a fixed clock. */
class ShopperTokensTest {

    static final String SECRET = "unit-test-secret-0123456789-0123456789";
    static final Instant NOW = Instant.parse("2026-11-22T10:00:00Z");

    ShopperTokens tokens = new ShopperTokens(settings(SECRET), clock(NOW));

    @Test
    void anInstanceWithTheSameSecretAcceptsTheToken() {
        String token = tokens.issue(42);
        Jwt jwt = decoder(SECRET, NOW.plusSeconds(5)).decode(token);
        assertThat(ShopperTokens.authentication(jwt).getPrincipal()).isEqualTo(new CurrentShopper(42));
        assertThat(ShopperTokens.authentication(jwt).getAuthorities()).extracting(Object::toString)
                .containsExactly("ROLE_SHOPPER");
    }

    @Test
    void refusesATokenSignedWithAnotherSecret() {
        String foreign = new ShopperTokens(settings("another-secret-0123456789-0123456789"), clock(NOW)).issue(42);
        assertThatThrownBy(() -> decoder(SECRET, NOW).decode(foreign)).isInstanceOf(BadJwtException.class);
    }

    @Test
    void refusesATokenWhoseShopperWasChanged() {
        String[] parts = tokens.issue(42).split("\\.");
        String payload = new String(Base64.getUrlDecoder().decode(parts[1]), StandardCharsets.UTF_8).replace("\"42\"", "\"43\"");
        String tampered = parts[0] + "." + Base64.getUrlEncoder().withoutPadding()
                .encodeToString(payload.getBytes(StandardCharsets.UTF_8)) + "." + parts[2];
        assertThatThrownBy(() -> decoder(SECRET, NOW).decode(tampered)).isInstanceOf(BadJwtException.class);
    }

    @Test
    void expiresAfterItsTtlWithNoLeeway() {
        String token = tokens.issue(42);
        assertThat(decoder(SECRET, NOW.plus(Duration.ofHours(24)).minusSeconds(1)).decode(token).getSubject()).isEqualTo("42");
        assertThatThrownBy(() -> decoder(SECRET, NOW.plus(Duration.ofHours(24)).plusSeconds(1)).decode(token))
                .isInstanceOfSatisfying(JwtValidationException.class, e -> assertThat(e.getErrors())
                        .extracting(OAuth2Error::getErrorCode).containsExactly(ShopperTokens.EXPIRED));
    }

    @Test
    void refusesMalformedTokens() {
        for (String malformed : new String[] {"", ".", "..", "42", "42.1.abc", "a.b.c", "x".repeat(300),
                "eyJhbGciOiJub25lIn0.eyJzdWIiOiI0MiJ9."}) {
            assertThatThrownBy(() -> decoder(SECRET, NOW).decode(malformed)).as(malformed).isInstanceOf(JwtException.class);
        }
    }

    private static JwtDecoder decoder(String secret, Instant now) {
        return ShopperTokens.decoder(settings(secret), clock(now));
    }

    private static AuthSettings settings(String secret) {
        return new AuthSettings(secret, Duration.ofHours(24), "admin", "password");
    }

    private static Clock clock(Instant now) {
        return Clock.fixed(now, ZoneOffset.UTC);
    }
}
