package dev.seckill.web.security;

import dev.seckill.web.security.AuthSettings;
import dev.seckill.web.security.CachingJwtDecoder;
import dev.seckill.web.security.ShopperTokens;

import java.time.Clock;
import java.util.Arrays;

import jakarta.servlet.DispatcherType;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpHeaders;
import org.springframework.security.authentication.ProviderManager;
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
import org.springframework.security.oauth2.server.resource.authentication.JwtAuthenticationProvider;
import org.springframework.security.oauth2.server.resource.web.authentication.BearerTokenAuthenticationFilter;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.firewall.RequestRejectedHandler;
import org.springframework.security.web.servlet.util.matcher.PathPatternRequestMatcher;
import org.springframework.security.web.authentication.session.NullAuthenticatedSessionStrategy;
import org.springframework.security.web.util.matcher.AnyRequestMatcher;
import org.springframework.security.web.util.matcher.OrRequestMatcher;
import org.springframework.security.web.util.matcher.RequestMatcher;
import org.springframework.security.web.authentication.www.BasicAuthenticationFilter;

/**
 * Three filter chains, all stateless (no session): the admin side (Basic), the shop's pages (the shopper's
 * token in an HttpOnly cookie, and a CSRF token), and the JSON API (a bearer token on every request, so no
 * CSRF token). They match the decoded, normalized path, after the default {@code StrictHttpFirewall}
 * has refused URLs that could mean two things.
 */
@Configuration(proxyBeanMethods = false)
@EnableWebSecurity
public class SecurityConfiguration {

    static final String[] SHOPPER_PATHS = {"/seckill/**", "/orders/**"};
    /** The payment webhook authenticates each notification by its signature ({@code dev.seckill.payment}). */
    static final String[] PUBLIC_PATHS = {"/vouchers", "/vouchers/*", "/vouchers/*/room", "/vouchers/*/room/now",
        "/vouchers/*/room/draw", "/ping", "/payments/webhook"};
    /** The pages, their scripts' calls ({@code /shop/...}) and what they load; nothing else uses the cookie. */
    static final String[] PAGE_PATHS = {"/", "/sales/**", "/my/**", "/sign-in", "/sign-in/**", "/sign-out", "/shop/**",
        "/css/**", "/js/**", "/webjars/**", "/favicon.ico"};
    static final String[] PAGE_SHOPPER_PATHS = {"/shop/**", "/my/**"};
    /**
     * Pages load nothing from elsewhere and run no inline script: a script injected through a voucher's
     * title would not run, and a copy of the page framed by another site would not show.
     */
    static final String PAGE_POLICY = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
            + "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

    /** The admin side: HTTP Basic; a spent address and user name is refused before the password is checked. */
    @Bean
    @Order(1)
    SecurityFilterChain adminChain(HttpSecurity http, AdminLoginLimiter loginLimiter, AuthSettings settings) {
        http.securityMatcher("/admin/**", "/actuator/**")
                // A browser that once signed in to the admin pages sends the Basic credentials by itself,
                // also with a request another site makes it send: every change from a browser needs the
                // page's CSRF token, signed for these credentials. Scripts (curl, JMeter) send their
                // credentials on purpose and no Sec-Fetch-Site header, so the JSON API stays as it was for them.
                .csrf(csrf -> csrf.csrfTokenRepository(new SignedCsrfTokens(settings.tokenSecret(), SignedCsrfTokens.ADMIN_LOGIN))
                        .csrfTokenRequestHandler(new SameOriginCsrfTokens())
                        .requireCsrfProtectionMatcher(SecurityConfiguration::browserChange)
                        .sessionAuthenticationStrategy(new NullAuthenticatedSessionStrategy()))
                .headers(headers -> headers.contentSecurityPolicy(policy -> policy.policyDirectives(PAGE_POLICY)))
                .authorizeHttpRequests(rules -> rules
                        .requestMatchers("/actuator/health", "/actuator/health/**").permitAll()
                        .anyRequest().hasRole("ADMIN"))
                .httpBasic(basic -> basic.realmName("seckill-admin").authenticationEntryPoint(SecurityProblems.admin()))
                .exceptionHandling(errors -> errors.authenticationEntryPoint(SecurityProblems.admin())
                        .accessDeniedHandler(SecurityProblems.accessDenied()))
                .addFilterBefore(loginLimiter.gate(), BasicAuthenticationFilter.class);
        return stateless(http, true).build();
    }

    /**
     * The shop's pages: public, except a shopper's own orders; their scripts call {@code /shop/...}
     * (the same handlers as the JSON API) with the token from the HttpOnly cookie and a CSRF token from the
     * page.
     */
    @Bean
    @Order(2)
    SecurityFilterChain pageChain(HttpSecurity http, JwtDecoder shopperTokenDecoder, AuthSettings settings) {
        http.securityMatcher(PAGE_PATHS)
                .authorizeHttpRequests(rules -> rules
                        .requestMatchers(PAGE_SHOPPER_PATHS).hasRole("SHOPPER")
                        .anyRequest().permitAll())
                // Spring's own bearer token filter, fed from the cookie, but not through oauth2ResourceServer():
                // that configurer exempts every request carrying a token from CSRF protection, right for an
                // Authorization header a script sets, and a hole for a cookie the browser sends by itself.
                .addFilterAt(cookieTokenFilter(shopperTokenDecoder), BasicAuthenticationFilter.class)
                .exceptionHandling(errors -> errors.authenticationEntryPoint(ShopperCookie.signInAgain())
                        .accessDeniedHandler(SecurityProblems.accessDenied()))
                // A CSRF token made for this shopper's cookie (or, before sign-in, for no one) by this server: a cookie
                // and header pair that someone else set up, or a token of another shopper, is refused.
                .csrf(csrf -> csrf.csrfTokenRepository(new SignedCsrfTokens(settings.tokenSecret(), SignedCsrfTokens.SHOPPER_COOKIE))
                        .csrfTokenRequestHandler(new SameOriginCsrfTokens())
                        .sessionAuthenticationStrategy(new NullAuthenticatedSessionStrategy()))
                .headers(headers -> headers.contentSecurityPolicy(policy -> policy.policyDirectives(PAGE_POLICY)));
        return stateless(http, true).build();
    }

    private static BearerTokenAuthenticationFilter cookieTokenFilter(JwtDecoder decoder) {
        JwtAuthenticationProvider provider = new JwtAuthenticationProvider(decoder);
        provider.setJwtAuthenticationConverter(ShopperTokens::authentication);
        BearerTokenAuthenticationFilter filter = new BearerTokenAuthenticationFilter(new ProviderManager(provider));
        filter.setBearerTokenResolver(ShopperCookie::token);
        filter.setAuthenticationEntryPoint(ShopperCookie.signInAgain());
        return filter;
    }

    /** Everything else: shoppers by bearer token, a short public list, and nothing more. */
    @Bean
    @Order(3)
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
        return stateless(http, false).build();
    }

    /**
     * A change (not GET, HEAD, OPTIONS, TRACE) that a browser sends (it names its fetch site) with credentials. One
     * without an {@code Authorization} header can change nothing here: it is answered 401 and its Basic challenge
     * first. That matters because the CSRF token is signed for the credentials, and a browser sends the admin's
     * cached login up front only below the page's own folder: the admin page's call to {@code /admin/vouchers} goes
     * out bare, and is sent again with the login once challenged.
     */
    static boolean browserChange(HttpServletRequest request) {
        String method = request.getMethod();
        boolean safe = "GET".equals(method) || "HEAD".equals(method) || "OPTIONS".equals(method) || "TRACE".equals(method);
        return !safe && request.getHeader(HttpHeaders.AUTHORIZATION) != null
                && (request.getHeader("Sec-Fetch-Site") != null || request.getRequestURI().startsWith("/admin/ui/"));
    }

    private static RequestMatcher shopperPaths() {
        return new OrRequestMatcher(Arrays.stream(SHOPPER_PATHS).<RequestMatcher>map(PathPatternRequestMatcher::pathPattern).toList());
    }

    /*
     * Both chains with CSRF protection pass new NullAuthenticatedSessionStrategy(): Spring rotates the CSRF
     * token whenever a request authenticates, against fixation of a login session. These chains keep no
     * session and authenticate every request anew (cookie or Basic), so the rotation deleted the token on
     * every page view, and every form and script call of the page was refused.
     */

    /** No session; CSRF only where a chain configured it (forms a browser submits with ambient credentials). */
    private static HttpSecurity stateless(HttpSecurity http, boolean keepCsrf) {
        if (!keepCsrf) {
            http.csrf(AbstractHttpConfigurer::disable);
        }
        return http.sessionManagement(session -> session.sessionCreationPolicy(SessionCreationPolicy.STATELESS))
                .requestCache(AbstractHttpConfigurer::disable)
                .formLogin(AbstractHttpConfigurer::disable)
                .logout(AbstractHttpConfigurer::disable);
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
