package dev.seckill.security;

import java.time.Clock;
import java.time.Duration;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.jwt.JwtDecoder;

/**
 * Remembers tokens the real decoder accepted, keyed by the whole token string, so a shopper's repeated
 * clicks are not verified again: during a sale most requests are a shopper's second, third, ... try, and
 * checking an HS256 JWT (parse, HMAC, claim conversion) was most of a sold-out refusal's cost
 * (docs/benchmarks.md). Only an identical string hits, so a changed byte is verified afresh; refusals are
 * never remembered; a remembered token is handed out only before its expiry (then the real decoder says
 * why it is refused).
 */
final class CachingJwtDecoder implements JwtDecoder {

    static final long MAX_TOKENS = 250_000;
    /** Bounds how long a token is trusted without a fresh check, whatever its expiry. */
    static final Duration REMEMBER_FOR = Duration.ofMinutes(5);

    private final JwtDecoder decoder;
    private final Clock clock;
    private final Cache<String, Jwt> accepted = Caffeine.newBuilder().maximumSize(MAX_TOKENS)
            .expireAfterWrite(REMEMBER_FOR).build();

    CachingJwtDecoder(JwtDecoder decoder, Clock clock) {
        this.decoder = decoder;
        this.clock = clock;
    }

    @Override
    public Jwt decode(String token) {
        Jwt known = accepted.getIfPresent(token);
        if (known != null && known.getExpiresAt() != null && !clock.instant().isAfter(known.getExpiresAt())) {
            return known;
        }
        Jwt verified = decoder.decode(token);
        accepted.put(token, verified);
        return verified;
    }
}
