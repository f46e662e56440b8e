package dev.seckill.support;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import tools.jackson.databind.json.JsonMapper;

/** Shopper tokens as a client sees them (JWTs), and forged or broken ones for the refusal tests. */
public final class Tokens {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private Tokens() {
    }

    /** The shopper id a token names ({@code sub}), read without checking anything. */
    public static long shopperId(String token) {
        String payload = new String(Base64.getUrlDecoder().decode(token.split("\\.")[1]), StandardCharsets.UTF_8);
        return Long.parseLong(JSON.readTree(payload).path("sub").asString());
    }

    /** A token like the platform's, signed with {@code secret}: any subject, issuer and expiry. */
    public static String signed(String secret, String subject, String issuer, Instant expiresAt) {
        JWTClaimsSet.Builder claims = new JWTClaimsSet.Builder().subject(subject).issuer(issuer);
        if (expiresAt != null) {
            claims.issueTime(Date.from(expiresAt.minusSeconds(3600))).expirationTime(Date.from(expiresAt));
        }
        return sign(secret, new JWSHeader(JWSAlgorithm.HS256), claims.build());
    }

    public static String sign(String secret, JWSHeader header, JWTClaimsSet claims) {
        try {
            SignedJWT jwt = new SignedJWT(header, claims);
            jwt.sign(new MACSigner(secret.getBytes(StandardCharsets.UTF_8)));
            return jwt.serialize();
        } catch (JOSEException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A valid token of the test instances (their secret, issuer {@code seckill}) for any subject. */
    public static String forTestInstances(String subject, Instant expiresAt) {
        return signed(TestServers.TOKEN_SECRET, subject, "seckill", expiresAt);
    }
}
