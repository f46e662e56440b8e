package dev.seckill.security;

import java.time.Clock;
import java.util.Arrays;

import jakarta.servlet.DispatcherType;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.annotation.Order;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.observation.SecurityObservationSettings;
import org.springframework.security.config.annotation.web.configuration.EnableWebSecurity;
import org.springframework.security.config.annotation.web.configurers.AbstractHttpConfigurer;
import org.springframework.security.config.http.SessionCreationPolicy;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.core.userdetails.UserDetailsService;
import org.springframework.security.crypto.password.PasswordEncoder;
import org.springframework.security.crypto.password.Pbkdf2PasswordEncoder;
import org.springframework.security.oauth2.jwt.JwtDecoder;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.firewall.RequestRejectedHandler;
import org.springframework.security.web.servlet.util.matcher.PathPatternRequestMatcher;
import org.springframework.security.web.util.matcher.AnyRequestMatcher;
import org.springframework.security.web.util.matcher.OrRequestMatcher;
import org.springframework.security.web.util.matcher.RequestMatcher;
import org.springframework.security.web.authentication.www.BasicAuthenticationFilter;

/**
 * Two filter chains. Both are stateless (no session, no cookie, no CSRF token: every request carries its
 * own credentials) and match the decoded, normalized path, after the default {@code StrictHttpFirewall}
 * has refused URLs that could mean two things.
 */
@Configuration(proxyBeanMethods = false)
@EnableWebSecurity
class SecurityConfiguration {

    static final String[] SHOPPER_PATHS = {"/seckill/**", "/orders/**"};
    static final String[] PUBLIC_PATHS = {"/vouchers", "/vouchers/*", "/ping", "/error"};

    /** The admin side: HTTP Basic; a spent address is refused before its password is checked. */
    @Bean
    @Order(1)
    SecurityFilterChain adminChain(HttpSecurity http, AdminLoginLimiter loginLimiter) {
        http.securityMatcher("/admin/**", "/actuator/**")
                .authorizeHttpRequests(rules -> rules
                        .requestMatchers("/actuator/health", "/actuator/health/**").permitAll()
                        .anyRequest().hasRole("ADMIN"))
                .httpBasic(basic -> basic.realmName("seckill-admin").authenticationEntryPoint(SecurityProblems.admin()))
                .exceptionHandling(errors -> errors.authenticationEntryPoint(SecurityProblems.admin())
                        .accessDeniedHandler(SecurityProblems.accessDenied()))
                .addFilterBefore(loginLimiter.gate(), BasicAuthenticationFilter.class);
        return stateless(http).build();
    }

    /** Everything else: shoppers by bearer token, a short public list, and nothing more. */
    @Bean
    @Order(2)
    SecurityFilterChain shopperChain(HttpSecurity http, JwtDecoder shopperTokenDecoder) {
        http.authorizeHttpRequests(rules -> rules
                        .dispatcherTypeMatchers(DispatcherType.ERROR).permitAll()
                        .requestMatchers(SHOPPER_PATHS).hasRole("SHOPPER")
                        .requestMatchers(PUBLIC_PATHS).permitAll()
                        .anyRequest().denyAll())
                .oauth2ResourceServer(server -> server
                        .bearerTokenResolver(new FastBearerTokenResolver())
                        .jwt(jwt -> jwt.decoder(shopperTokenDecoder).jwtAuthenticationConverter(ShopperTokens::authentication))
                        .authenticationEntryPoint(SecurityProblems.shopper()))
                .exceptionHandling(errors -> errors
                        .defaultAuthenticationEntryPointFor(SecurityProblems.shopper(), shopperPaths())
                        .defaultAuthenticationEntryPointFor(SecurityProblems.notFound(), AnyRequestMatcher.INSTANCE)
                        .accessDeniedHandler(SecurityProblems.notFoundWhenDenied()));
        return stateless(http).build();
    }

    private static RequestMatcher shopperPaths() {
        return new OrRequestMatcher(Arrays.stream(SHOPPER_PATHS).<RequestMatcher>map(PathPatternRequestMatcher::pathPattern).toList());
    }

    private static HttpSecurity stateless(HttpSecurity http) {
        return http.sessionManagement(session -> session.sessionCreationPolicy(SessionCreationPolicy.STATELESS))
                .csrf(AbstractHttpConfigurer::disable)
                .requestCache(AbstractHttpConfigurer::disable)
                .formLogin(AbstractHttpConfigurer::disable)
                .logout(AbstractHttpConfigurer::disable);
    }

    @Bean
    JwtDecoder shopperTokenDecoder(AuthSettings settings, Clock clock) {
        return new CachingJwtDecoder(ShopperTokens.decoder(settings, clock), clock);
    }

    /**
     * Spring Security observes every filter of its chains by default: wrappers, observations and events on
     * every request, 5-7% of a request's time under load (JFR, docs/benchmarks.md), for traces nobody here
     * reads. Turning them off in management.observations still left the wrappers; this removes them. The
     * HTTP server observation (http.server.requests) stays.
     */
    @Bean
    SecurityObservationSettings noSecurityObservations() {
        return SecurityObservationSettings.noObservations();
    }

    @Bean
    UserDetailsService adminAccount(AuthSettings settings, PasswordEncoder encoder) {
        return new InMemoryUserDetailsManager(User.withUsername(settings.adminUser())
                .password(encoder.encode(settings.adminPassword())).roles("ADMIN").build());
    }

    /**
     * The admin password comes from the environment and its hash lives only in this process's memory, so
     * a slow hash protects nothing stored; what matters is a constant-time comparison (PBKDF2's), without
     * spending 50-100 ms of CPU on every admin request as a bcrypt-style cost would. Guessing is priced by
     * {@link AdminLoginLimiter} instead.
     */
    @Bean
    PasswordEncoder adminPasswordEncoder() {
        return new Pbkdf2PasswordEncoder("", 16, 1_000, Pbkdf2PasswordEncoder.SecretKeyFactoryAlgorithm.PBKDF2WithHmacSHA256);
    }

    @Bean
    RequestRejectedHandler requestRejectedHandler() {
        return SecurityProblems.requestRejected();
    }
}
