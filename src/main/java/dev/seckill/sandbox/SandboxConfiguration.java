package dev.seckill.sandbox;

import java.time.Clock;
import java.util.Random;
import java.util.random.RandomGenerator;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.annotation.web.configurers.AbstractHttpConfigurer;
import org.springframework.security.config.http.SessionCreationPolicy;
import org.springframework.security.web.SecurityFilterChain;

@Configuration(proxyBeanMethods = false)
class SandboxConfiguration {

    /** The checkout page loads nothing from elsewhere, posts only to itself and is framed by no one. */
    static final String PAGE_POLICY = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
            + "object-src 'none'; "
            + "base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

    /**
     * The dice of the sandbox's misbehaviour (delays, duplicates): one bean, so that a seeded one can stand in for it
     * where a run must repeat. {@link Random} because the deliverer's and the requests' threads share it.
     */
    @Bean
    RandomGenerator sandboxRandom() {
        return new Random();
    }

    @Bean
    Clock sandboxClock() {
        return Clock.systemUTC();
    }

    /**
     * No sign-in and no session: the checkout page stands for a provider's own site, where the unguessable payment
     * reference in the URL is the only key, and a script pays with one plain form POST (so no CSRF token). The shop's
     * API calls carry the shared secret, which {@code MerchantApiController} checks itself.
     */
    @Bean
    SecurityFilterChain sandboxChain(HttpSecurity http) {
        return http.authorizeHttpRequests(rules -> rules.anyRequest().permitAll())
                .csrf(AbstractHttpConfigurer::disable)
                .sessionManagement(session -> session.sessionCreationPolicy(SessionCreationPolicy.STATELESS))
                .headers(headers -> headers.contentSecurityPolicy(policy -> policy.policyDirectives(PAGE_POLICY)))
                .build();
    }
}
