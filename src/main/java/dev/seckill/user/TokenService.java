package dev.seckill.user;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Clock;
import java.util.Base64;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import dev.seckill.web.ProblemCode;
import dev.seckill.web.SeckillProblem;
import org.springframework.stereotype.Component;

/**
 * Stateless shopper tokens: {@code <shopperId>.<expiresAtEpochSeconds>.<HMAC-SHA256>}. Any instance
 * holding the shared secret can check one without a Redis or database round trip on the hot path.
 */
@Component
class TokenService {

    private static final String ALGORITHM = "HmacSHA256";
    private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();
    private static final Base64.Decoder DECODER = Base64.getUrlDecoder();
    private static final int MAX_TOKEN_LENGTH = 200;

    private final SecretKeySpec key;
    private final long ttlSeconds;
    private final Clock clock;
    private final ThreadLocal<Mac> macs;

    TokenService(AuthSettings settings, Clock clock) {
        this.key = new SecretKeySpec(settings.tokenSecret().getBytes(StandardCharsets.UTF_8), ALGORITHM);
        this.ttlSeconds = settings.tokenTtl().toSeconds();
        this.clock = clock;
        this.macs = ThreadLocal.withInitial(this::newMac);
    }

    String issue(long shopperId) {
        String payload = shopperId + "." + (clock.instant().getEpochSecond() + ttlSeconds);
        return payload + "." + ENCODER.encodeToString(sign(payload));
    }

    /** Returns the shopper id, or refuses with token-invalid / token-expired. */
    long verify(String token) {
        if (token.length() > MAX_TOKEN_LENGTH) {
            throw invalid();
        }
        int lastDot = token.lastIndexOf('.');
        int firstDot = token.indexOf('.');
        if (firstDot <= 0 || lastDot == firstDot || lastDot == token.length() - 1) {
            throw invalid();
        }
        String payload = token.substring(0, lastDot);
        byte[] signature;
        try {
            signature = DECODER.decode(token.substring(lastDot + 1));
        } catch (IllegalArgumentException e) {
            throw invalid();
        }
        if (!MessageDigest.isEqual(signature, sign(payload))) {
            throw invalid();
        }
        // Signed by us, so the numbers parse; expiry is checked only after the signature.
        long shopperId = Long.parseLong(payload.substring(0, firstDot));
        long expiresAt = Long.parseLong(payload.substring(firstDot + 1));
        if (clock.instant().getEpochSecond() >= expiresAt) {
            throw new SeckillProblem(ProblemCode.TOKEN_EXPIRED);
        }
        return shopperId;
    }

    private byte[] sign(String payload) {
        return macs.get().doFinal(payload.getBytes(StandardCharsets.US_ASCII));
    }

    private Mac newMac() {
        try {
            Mac mac = Mac.getInstance(ALGORITHM);
            mac.init(key);
            return mac;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HMAC-SHA256 is not available", e);
        }
    }

    private static SeckillProblem invalid() {
        return new SeckillProblem(ProblemCode.TOKEN_INVALID);
    }
}
