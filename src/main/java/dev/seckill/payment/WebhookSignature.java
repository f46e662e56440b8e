package dev.seckill.payment;

import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The signature on a payment notification, as payment providers make it: {@code t=<unix seconds>,v1=<hex>} in the
 * {@value #HEADER} header, where the hex is HMAC-SHA256 over {@code "<t>.<body>"} with the shared secret. Signing the
 * time with the body lets a receiver refuse an old notification replayed later (outside the tolerance).
 */
public final class WebhookSignature {

    public static final String HEADER = "Payment-Signature";
    private static final String ALGORITHM = "HmacSHA256";

    private final SecretKeySpec key;

    public WebhookSignature(String secret) {
        if (secret == null || secret.length() < 16) {
            throw new IllegalArgumentException("A webhook secret needs at least 16 characters");
        }
        this.key = new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), ALGORITHM);
    }

    /** The header value for this body, signed at {@code at}. */
    public String sign(String body, Instant at) {
        long seconds = at.getEpochSecond();
        return "t=" + seconds + ",v1=" + HexFormat.of().formatHex(mac(seconds, body));
    }

    public enum Verdict { VALID, MALFORMED, STALE, WRONG }

    /**
     * Whether {@code header} signs {@code body} with our secret at a time within {@code tolerance} of {@code now}.
     * The comparison takes the same time whatever the bytes ({@link MessageDigest#isEqual}).
     */
    public Verdict verify(String header, String body, Instant now, Duration tolerance) {
        if (header == null) {
            return Verdict.MALFORMED;
        }
        Long seconds = null;
        byte[] given = null;
        for (String part : header.split(",")) {
            String[] pair = part.trim().split("=", 2);
            if (pair.length != 2) {
                return Verdict.MALFORMED;
            }
            try {
                switch (pair[0]) {
                    case "t" -> seconds = Long.parseLong(pair[1]);
                    case "v1" -> given = HexFormat.of().parseHex(pair[1]);
                    default -> { /* another scheme's signature: ignored, as providers document */ }
                }
            } catch (IllegalArgumentException notANumberOrHex) {
                return Verdict.MALFORMED;
            }
        }
        if (seconds == null || given == null) {
            return Verdict.MALFORMED;
        }
        if (Math.abs(now.getEpochSecond() - seconds) > tolerance.toSeconds()) {
            return Verdict.STALE;
        }
        return MessageDigest.isEqual(mac(seconds, body), given) ? Verdict.VALID : Verdict.WRONG;
    }

    private byte[] mac(long seconds, String body) {
        try {
            Mac mac = Mac.getInstance(ALGORITHM);
            mac.init(key);
            return mac.doFinal((seconds + "." + body).getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException | InvalidKeyException e) {
            throw new IllegalStateException("HmacSHA256 is part of every JDK", e);
        }
    }
}
