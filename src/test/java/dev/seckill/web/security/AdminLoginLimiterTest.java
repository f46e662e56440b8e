package dev.seckill.web.security;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Failed admin logins are counted per client address and user name: one key per pair, the same on every instance,
 * with the address as the Redis Cluster hash tag and never the user name as sent (it is whatever the client typed).
 */
class AdminLoginLimiterTest {

    @Test
    void oneKeyPerAddressAndUserName() {
        String admin = AdminLoginLimiter.key("203.0.113.7", "admin");
        assertThat(admin).isEqualTo(AdminLoginLimiter.key("203.0.113.7", "admin"))
                .matches("admin-login-failures:\\{203\\.0\\.113\\.7}:[0-9a-f]{32}");
        assertThat(AdminLoginLimiter.key("203.0.113.8", "admin")).as("another address").isNotEqualTo(admin);
        assertThat(AdminLoginLimiter.key("203.0.113.7", "Admin")).as("another user name").isNotEqualTo(admin);
        assertThat(AdminLoginLimiter.key("203.0.113.7", "")).as("no user name").isNotEqualTo(admin);
    }

    @Test
    void theUserNameNeverReachesRedisAsSent() {
        String odd = AdminLoginLimiter.key("2001:db8::1", "}{evil}\r\n" + "x".repeat(10_000));
        assertThat(odd).matches("admin-login-failures:\\{2001:db8::1}:[0-9a-f]{32}");
    }
}
