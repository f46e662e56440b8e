package dev.seckill.sale.ticket;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.time.Clock;
import java.time.Instant;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Map;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import dev.seckill.refusal.Reason;
import dev.seckill.refusal.Refusal;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import org.altcha.altcha.Altcha;
import org.springframework.stereotype.Component;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

/**
 * ALTCHA challenges ({@code org.altcha:altcha}): created with the voucher's difficulty and bound to one shopper and
 * voucher by parameters in the salt, which the signature covers; checked by one SHA-256 and one HMAC, with
 * nothing remembered (the instance that checks need not be the one that created it). The expiry is checked here by
 * our clock, not the library's, so tests can move it.
 */
@Component
public class Challenges {

    /** Far above a real solution (about 300 characters); a longer one is refused before it is decoded. */
    static final int MAX_SOLUTION_LENGTH = 2_048;
    private static final String ALGORITHM = "SHA-256";

    private final String key;
    private final JsonMapper json;
    private final Clock clock;

    Challenges(TicketSettings settings, JsonMapper json, Clock clock) {
        this.key = derivedKey(settings.challengeSecret());
        this.json = json;
        this.clock = clock;
    }

    /** A challenge a browser solves in about {@code difficulty / 2} hashes; 0: a trivial one. */
    public Challenge create(long shopperId, long voucherId, int difficulty, Instant expiresAt) {
        Altcha.ChallengeOptions options = new Altcha.ChallengeOptions()
                .setAlgorithm(Altcha.Algorithm.SHA256)
                .setMaxNumber((long) Math.max(1, difficulty))
                .setSecureRandomNumber(true)
                .setHmacKey(key)
                .setExpires(expiresAt.getEpochSecond())
                .addParam("shopper", Long.toString(shopperId))
                .addParam("voucher", Long.toString(voucherId))
                // Signed with the rest: an instance that would ask less (another default during a rolling
                // change) cannot be shopped for an easier challenge that the others then accept.
                .addParam("difficulty", Integer.toString(difficulty));
        try {
            Altcha.Challenge created = Altcha.createChallenge(options);
            return new Challenge(created.algorithm, created.challenge, created.maxnumber, created.salt, created.signature);
        } catch (Exception e) {
            throw new IllegalStateException("ALTCHA could not create a challenge", e);
        }
    }

    /** A verified solution: its challenge (spent once, by the ticket's Redis call) and when that expires. */
    public record Solved(String challenge, Instant expiresAt) {
    }

    /**
     * Checks the widget's solution (base64 of its JSON payload) for this shopper and voucher, made at least as hard
     * as {@code difficulty} (the voucher's now).
     *
     * @throws Refusal {@code CHALLENGE_INVALID}: malformed, wrong, forged, expired, another's, or too easy
     */
    public Solved verify(String solution, long shopperId, long voucherId, int difficulty) {
        Payload payload = decode(solution);
        Altcha.Payload altcha = new Altcha.Payload();
        altcha.algorithm = payload.algorithm();
        altcha.challenge = payload.challenge();
        altcha.number = payload.number();
        altcha.salt = payload.salt();
        altcha.signature = payload.signature();
        Map<String, String> params;
        try {
            if (!Altcha.verifySolution(altcha, key, false)) {
                throw invalid("the solution does not solve a challenge of ours");
            }
            params = Altcha.extractParams(payload.salt());
        } catch (Refusal refusal) {
            throw refusal;
        } catch (Exception malformed) {
            throw invalid("the solution is malformed");
        }
        Instant expiresAt = Instant.ofEpochSecond(parse(params.get("expires")));
        if (clock.instant().isAfter(expiresAt)) {
            throw invalid("the challenge expired at " + expiresAt);
        }
        if (parse(params.get("shopper")) != shopperId || parse(params.get("voucher")) != voucherId) {
            throw invalid("the challenge was issued for another shopper or voucher");
        }
        if (parse(params.get("difficulty")) < difficulty) {
            throw invalid("the challenge is easier than this voucher asks");
        }
        return new Solved(payload.challenge(), expiresAt);
    }

    /** The widget adds fields of its own (e.g. {@code took}, its solve time): only these are read. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    private record Payload(String algorithm, String challenge, Long number, String salt, String signature) {
    }

    private Payload decode(String solution) {
        if (solution.length() > MAX_SOLUTION_LENGTH) {
            throw invalid("the solution is too long");
        }
        Payload payload;
        try {
            payload = json.readValue(Base64.getDecoder().decode(solution.strip()), Payload.class);
        } catch (IllegalArgumentException | JacksonException e) {
            throw invalid("the solution is not base64 of the widget's JSON");
        }
        if (payload == null || !ALGORITHM.equals(payload.algorithm()) || payload.challenge() == null
                || payload.number() == null || payload.salt() == null || payload.signature() == null) {
            throw invalid("the solution lacks a field, or is not SHA-256");
        }
        return payload;
    }

    private static long parse(String number) {
        try {
            return Long.parseLong(number);
        } catch (NumberFormatException e) {
            throw invalid("the challenge's parameters are incomplete");
        }
    }

    private static Refusal invalid(String why) {
        return new Refusal(Reason.CHALLENGE_INVALID, "The challenge solution was refused: " + why);
    }

    /** A key of its own, even when the secret is the shopper tokens' one: a signature of one is never the other's. */
    private static String derivedKey(String secret) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            return HexFormat.of().formatHex(mac.doFinal("seckill altcha challenges".getBytes(StandardCharsets.UTF_8)));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is missing from this JVM", e);
        }
    }
}
