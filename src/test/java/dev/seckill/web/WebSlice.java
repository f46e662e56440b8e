package dev.seckill.web;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.time.Clock;
import java.time.ZoneOffset;

import dev.seckill.InstanceIdentity;
import dev.seckill.ratelimit.RateLimitSettings;
import dev.seckill.ratelimit.RedisRateLimiter;
import dev.seckill.web.security.AuthSettings;
import dev.seckill.web.security.ShopperTokens;
import dev.seckill.support.TestServers;
import dev.seckill.web.security.AdminLoginLimiter;
import dev.seckill.web.security.SecurityConfiguration;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.autoconfigure.availability.ApplicationAvailabilityAutoConfiguration;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.core.annotation.AliasFor;
import org.springframework.security.oauth2.jwt.JwtDecoder;
import org.springframework.test.context.TestPropertySource;
import org.springframework.test.context.bean.override.mockito.MockitoBean;

/**
 * A {@code @WebMvcTest} of the given controllers behind the application's own filter chains
 * ({@link SecurityConfiguration}, with the admin login limiter) and problem answers ({@link ApiExceptionHandler}
 * and the filters of {@code dev.seckill.web}): no server, no MySQL, no Redis. Shopper tokens are checked by
 * the real decoder ({@link ShopperTokens#decoder}, without the production cache) against a fixed clock
 * ({@link SliceAuth#NOW}); the admin logs in with the test instances' credentials. The limiter's Redis side
 * ({@link RedisRateLimiter}) is a mock: by default no address has spent its failed logins.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@WebMvcTest
@Import({SecurityConfiguration.class, AdminLoginLimiter.class, WebSlice.Beans.class})
// dev.seckill.platform's filter (a Filter bean, so in every web slice) asks whether the instance is draining.
@ImportAutoConfiguration(ApplicationAvailabilityAutoConfiguration.class)
@MockitoBean(types = RedisRateLimiter.class)
@TestPropertySource(properties = {
    "seckill.auth.token-secret=" + TestServers.TOKEN_SECRET,
    "seckill.payment.webhook.secret=" + TestServers.WEBHOOK_SECRET,
    "seckill.auth.admin-user=" + TestServers.ADMIN_USER,
    "seckill.auth.admin-password=" + TestServers.ADMIN_PASSWORD,
    "seckill.web.instance-id=web-slice"})
public @interface WebSlice {

    /** The controllers under test; the advice, filters and security chains come with every slice. */
    @AliasFor(annotation = WebMvcTest.class, attribute = "controllers")
    Class<?>[] value();

    /**
     * What the chains and filters need from elsewhere, as production builds it; their settings are bound from the
     * settings records' defaults, application.yml's values read from the environment and the properties above
     * (slices leave out {@code @ConfigurationPropertiesScan}).
     */
    @TestConfiguration(proxyBeanMethods = false)
    @EnableConfigurationProperties({WebSettings.class, InstanceIdentity.class, AuthSettings.class, RateLimitSettings.class})
    class Beans {

        @Bean
        Clock clock() {
            return Clock.fixed(SliceAuth.NOW, ZoneOffset.UTC);
        }

        @Bean
        JwtDecoder shopperTokenDecoder(AuthSettings settings, Clock clock) {
            return ShopperTokens.decoder(settings, clock);
        }
    }
}
