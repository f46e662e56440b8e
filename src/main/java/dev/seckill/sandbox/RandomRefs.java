package dev.seckill.sandbox;

import java.security.SecureRandom;
import java.util.Base64;

/**
 * References as providers make them: a type prefix and 144 random bits, URL-safe. A payment's reference is all a
 * checkout URL carries, so it must not be guessable (the page needs no sign-in).
 */
final class RandomRefs {

    private static final SecureRandom RANDOM = new SecureRandom();
    private static final Base64.Encoder URL_SAFE = Base64.getUrlEncoder().withoutPadding();

    private RandomRefs() {
    }

    static String payment() {
        return "pay_" + random();
    }

    static String event() {
        return "evt_" + random();
    }

    private static String random() {
        byte[] bytes = new byte[18];
        RANDOM.nextBytes(bytes);
        return URL_SAFE.encodeToString(bytes);
    }
}
