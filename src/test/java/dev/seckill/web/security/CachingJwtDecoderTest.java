package dev.seckill.web.security;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicInteger;

import dev.seckill.support.SteppingClock;
import org.junit.jupiter.api.Test;
import org.springframework.security.oauth2.core.OAuth2Error;
import org.springframework.security.oauth2.jwt.BadJwtException;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.jwt.JwtDecoder;
import org.springframework.security.oauth2.jwt.JwtValidationException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The verified-token cache: repeats skip the check, nothing else does. */
class CachingJwtDecoderTest {

    static final String SECRET = "unit-test-secret-0123456789-0123456789";
    static final Instant NOW = Instant.parse("2026-11-22T10:00:00Z");

    final SteppingClock clock = SteppingClock.at(NOW);
    final AtomicInteger verified = new AtomicInteger();
    final JwtDecoder real = ShopperTokens.decoder(new AuthSettings(SECRET, Duration.ofHours(1), "admin", "password"), clock);
    final CachingJwtDecoder decoder = new CachingJwtDecoder(token -> {
        verified.incrementAndGet();
        return real.decode(token);
    }, clock);
    final ShopperTokens tokens = new ShopperTokens(new AuthSettings(SECRET, Duration.ofHours(1), "admin", "password"),
            Clock.fixed(NOW, ZoneOffset.UTC));

    @Test
    void aRepeatedTokenIsVerifiedOnce() {
        String token = tokens.issue(42);
        Jwt first = decoder.decode(token);
        Jwt again = decoder.decode(token);
        assertThat(again).isSameAs(first);
        assertThat(again.getSubject()).isEqualTo("42");
        assertThat(verified).hasValue(1);
    }

    @Test
    void anotherTokenIsVerifiedAfresh() {
        decoder.decode(tokens.issue(42));
        decoder.decode(tokens.issue(43));
        assertThat(verified).hasValue(2);
    }

    @Test
    void aChangedByteIsVerifiedAndRefusedAfterTheGenuineTokenWasAccepted() {
        String token = tokens.issue(42);
        decoder.decode(token);
        char last = token.charAt(token.length() - 1);
        String tampered = token.substring(0, token.length() - 1) + (last == 'A' ? 'B' : 'A');
        assertThatThrownBy(() -> decoder.decode(tampered)).isInstanceOf(BadJwtException.class);
        assertThat(verified).hasValue(2);
    }

    @Test
    void aRefusalIsNotRemembered() {
        assertThatThrownBy(() -> decoder.decode("a.b.c")).isInstanceOf(BadJwtException.class);
        assertThatThrownBy(() -> decoder.decode("a.b.c")).isInstanceOf(BadJwtException.class);
        assertThat(verified).hasValue(2);
    }

    @Test
    void aRememberedTokenIsRefusedOnceExpiredWithTheRealDecodersReason() {
        String token = tokens.issue(42);
        decoder.decode(token);
        clock.set(NOW.plus(Duration.ofHours(1)));
        assertThat(decoder.decode(token).getSubject()).as("at its expiry, as the real decoder says").isEqualTo("42");
        assertThat(verified).hasValue(1);
        clock.set(NOW.plus(Duration.ofHours(1)).plusSeconds(1));
        assertThatThrownBy(() -> decoder.decode(token))
                .isInstanceOfSatisfying(JwtValidationException.class, e -> assertThat(e.getErrors())
                        .extracting(OAuth2Error::getErrorCode).containsExactly(ShopperTokens.EXPIRED));
    }

    @Test
    void aStreamOfNewShoppersStaysWithinTheBound() {
        CachingJwtDecoder unverified = new CachingJwtDecoder(token -> Jwt.withTokenValue(token).header("alg", "HS256")
                .subject(token).expiresAt(NOW.plus(Duration.ofHours(1))).build(), clock);
        for (long shopper = 1; shopper <= CachingJwtDecoder.MAX_TOKENS + 5_000; shopper++) {
            unverified.decode("token-of-shopper-" + shopper);
        }
        assertThat(unverified.remembered()).isLessThanOrEqualTo(CachingJwtDecoder.MAX_TOKENS);
    }
}
