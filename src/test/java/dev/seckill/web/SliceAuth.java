package dev.seckill.web;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;

import dev.seckill.support.TestServers;
import dev.seckill.support.Tokens;

/** The credentials a {@link WebSlice} accepts: shopper tokens against its fixed clock, and its admin. */
public final class SliceAuth {

    /** What the slice's clock reads: shopper tokens expire relative to it. */
    public static final Instant NOW = Instant.parse("2026-11-22T10:00:00Z");

    private SliceAuth() {
    }

    /** {@code Authorization} with a valid shopper token for this shopper id, an hour from expiry. */
    public static String shopper(long shopperId) {
        return bearer(Tokens.forTestInstances(Long.toString(shopperId), NOW.plusSeconds(3600)));
    }

    public static String bearer(String token) {
        return "Bearer " + token;
    }

    /** {@code Authorization} of the slice's admin user with this password. */
    public static String admin(String password) {
        String credentials = TestServers.ADMIN_USER + ":" + password;
        return "Basic " + Base64.getEncoder().encodeToString(credentials.getBytes(StandardCharsets.UTF_8));
    }

    /** {@code Authorization} of the slice's admin. */
    public static String admin() {
        return admin(TestServers.ADMIN_PASSWORD);
    }
}
