package dev.seckill.sandbox;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.time.Instant;
import java.util.HexFormat;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The provider's half of the webhook signature: {@code t=<unix seconds>,v1=<hex>} in the {@value #HEADER} header,
 * the hex an HMAC-SHA256 over {@code "<t>.<body>"} with the secret shared with the shop, which checks it. The time is
 * signed with the body so that the shop can refuse an old notification replayed later.
 */
final class NotificationSigner {

    static final String HEADER = "Payment-Signature";

    private final SecretKeySpec key;

    NotificationSigner(String secret) {
        this.key = new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256");
    }

    String sign(String body, Instant at) {
        long seconds = at.getEpochSecond();
        try {
            Mac hmac = Mac.getInstance(key.getAlgorithm());
            hmac.init(key);
            byte[] digest = hmac.doFinal((seconds + "." + body).getBytes(StandardCharsets.UTF_8));
            return "t=" + seconds + ",v1=" + HexFormat.of().formatHex(digest);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("Every JDK has HmacSHA256", e);
        }
    }
}
