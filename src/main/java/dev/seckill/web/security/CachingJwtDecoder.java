package dev.seckill.web.security;

import java.time.Clock;
import java.time.Duration;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.jwt.JwtDecoder;

/**
 * Remembers tokens the real decoder accepted, keyed by the whole token string, so a shopper's repeated
 * clicks are not verified again: during a sale most requests are a shopper's second, third, ... try, and
 * checking an HS256 JWT (parse, HMAC, claim conversion) is a large part of a sold-out refusal's cost
 * (docs/benchmarks.md). Only an identical string hits, so a changed byte is verified afresh; refusals are
 * never remembered; a remembered token is handed out only before its expiry (then the real decoder says
 * why it is refused).
 */
public final class CachingJwtDecoder implements JwtDecoder {

    /**
     * A remembered token holds its string, the {@code Jwt} and its two maps: about a kilobyte. At 250,000 the
     * cache grows to a few hundred megabytes under a stream of new shoppers, most of a 512 MB heap, and G1's
     * concurrent marking takes a fifth of the instance's CPU (docs/benchmarks.md). The shoppers
     * worth remembering are the ones clicking again, and Caffeine's frequency-based admission keeps those
     * over one-time tokens, so a few megabytes of them are enough.
     */
    static final long MAX_TOKENS = 20_000;
    /** Bounds how long a token is trusted without a fresh check, whatever its expiry. */
    static final Duration REMEMBER_FOR = Duration.ofMinutes(5);

    private final JwtDecoder decoder;
    private final Clock clock;
    /** Evictions on the calling thread, as in {@code LocalLimitGate}: cheaper than waking the common pool. */
    private final Cache<String, Jwt> accepted = Caffeine.newBuilder().executor(Runnable::run).maximumSize(MAX_TOKENS)
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

    /** How many tokens are remembered once pending evictions have run. */
    long remembered() {
        accepted.cleanUp();
        return accepted.estimatedSize();
    }
}
