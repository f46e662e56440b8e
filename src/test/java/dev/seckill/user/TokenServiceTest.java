package dev.seckill.user;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;

import dev.seckill.web.ProblemCode;
import dev.seckill.web.SeckillProblem;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TokenServiceTest {

    static final String SECRET = "unit-test-secret-0123456789-0123456789";
    static final Instant NOW = Instant.parse("2026-11-22T10:00:00Z");

    TokenService tokens = service(SECRET, NOW);

    @Test
    void verifiesItsOwnTokens() {
        assertThat(tokens.verify(tokens.issue(42))).isEqualTo(42);
    }

    @Test
    void anotherInstanceWithTheSameSecretAcceptsTheToken() {
        assertThat(service(SECRET, NOW.plusSeconds(5)).verify(tokens.issue(7))).isEqualTo(7);
    }

    @Test
    void refusesATokenSignedWithAnotherSecret() {
        String foreign = service("another-secret-0123456789-0123456789", NOW).issue(42);
        assertRefused(foreign, ProblemCode.TOKEN_INVALID);
    }

    @Test
    void refusesATokenWhoseShopperOrExpiryWasChanged() {
        String[] parts = tokens.issue(42).split("\\.");
        assertRefused("43." + parts[1] + "." + parts[2], ProblemCode.TOKEN_INVALID);
        assertRefused(parts[0] + "." + (Long.parseLong(parts[1]) + 3600) + "." + parts[2], ProblemCode.TOKEN_INVALID);
    }

    @Test
    void refusesAnExpiredToken() {
        String token = tokens.issue(42);
        TokenService later = service(SECRET, NOW.plus(Duration.ofHours(24)));
        assertRefused(later, token, ProblemCode.TOKEN_EXPIRED);
        assertThat(service(SECRET, NOW.plus(Duration.ofHours(24)).minusSeconds(1)).verify(token)).isEqualTo(42);
    }

    @Test
    void refusesMalformedTokens() {
        for (String malformed : new String[] {"", ".", "..", "42", "42.", "42.1", ".1.abc", "42.1.", "42.1.@@@",
                "a.b.c", "x".repeat(300)}) {
            assertRefused(malformed, ProblemCode.TOKEN_INVALID);
        }
    }

    private void assertRefused(String token, ProblemCode code) {
        assertRefused(tokens, token, code);
    }

    private static void assertRefused(TokenService service, String token, ProblemCode code) {
        assertThatThrownBy(() -> service.verify(token)).as(token)
                .isInstanceOfSatisfying(SeckillProblem.class, p -> assertThat(p.code()).isEqualTo(code));
    }

    private static TokenService service(String secret, Instant now) {
        return new TokenService(new AuthSettings(secret, Duration.ofHours(24), "admin", "password"),
                Clock.fixed(now, ZoneOffset.UTC));
    }
}
