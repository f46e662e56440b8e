package dev.seckill.web.security;

import java.io.IOException;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import dev.seckill.ratelimit.RateLimitSettings;
import dev.seckill.ratelimit.RedisRateLimiter;
import dev.seckill.web.ProblemCode;
import dev.seckill.web.ProblemResponses;
import dev.seckill.web.SeckillProblem;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.event.EventListener;
import org.springframework.http.HttpHeaders;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.authentication.event.AuthenticationFailureBadCredentialsEvent;
import org.springframework.security.web.authentication.WebAuthenticationDetails;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Prices password guessing: every failed admin login is logged (user name and address, never the
 * password) and counted per client address in Redis, so all instances share the count; an address that
 * has spent its failures gets 429 on the admin side, before its credentials are even checked. Behind
 * Nginx the client address is the one Nginx saw ({@code server.forward-headers-strategy=native}).
 */
@Component
public class AdminLoginLimiter {

    private static final Logger log = LoggerFactory.getLogger(AdminLoginLimiter.class);

    private final RedisRateLimiter limiter;
    private final RateLimitSettings.Limit failures;

    AdminLoginLimiter(RedisRateLimiter limiter, RateLimitSettings settings) {
        this.limiter = limiter;
        this.failures = settings.adminLoginFailures();
    }

    /**
     * The filter that refuses a spent address, placed before Basic authentication in the admin chain
     * (not a bean: Spring Boot would also register a filter bean for every request).
     */
    OncePerRequestFilter gate() {
        return new OncePerRequestFilter() {
            @Override
            protected boolean shouldNotFilter(HttpServletRequest request) {
                String header = request.getHeader(HttpHeaders.AUTHORIZATION);
                return header == null || !header.regionMatches(true, 0, "Basic", 0, 5);
            }

            @Override
            protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response,
                    FilterChain chain) throws ServletException, IOException {
                boolean exhausted;
                try {
                    exhausted = limiter.isExhausted(key(request.getRemoteAddr()));
                } catch (RuntimeException countUnknown) {
                    // Redis out of reach: the failures cannot be counted, so no password is checked either (an
                    // unpriced guess is what this filter exists to stop). Answered as the problem any other
                    // outage gets, 503 backend-unavailable, not the servlet container's bare 500.
                    ProblemResponses.writeFailure(response, countUnknown, request.getRequestURI());
                    return;
                }
                if (exhausted) {
                    SecurityProblems.write(request, response, new SeckillProblem(ProblemCode.RATE_LIMITED,
                            "Too many failed admin logins from this address; try again later",
                            failures.retryAfterSeconds()));
                    return;
                }
                chain.doFilter(request, response);
            }
        };
    }

    @EventListener
    void loginFailed(AuthenticationFailureBadCredentialsEvent event) {
        if (!(event.getAuthentication() instanceof UsernamePasswordAuthenticationToken attempt)) {
            return;
        }
        String address = attempt.getDetails() instanceof WebAuthenticationDetails details
                ? details.getRemoteAddress() : "unknown";
        log.warn("Admin login failed for user '{}' from {}", printable(attempt.getName()), address);
        try {
            limiter.tryAcquire(key(address), failures);
        } catch (RuntimeException notCounted) {
            // Redis went away after the gate asked it: this failure goes uncounted, and the request is still
            // refused for its credentials.
            log.warn("Admin login failure from {} not counted: {}", address, notCounted.toString());
        }
    }

    private static String key(String address) {
        return "admin-login-failures:{" + address + "}";
    }

    /** A user name is whatever the client sent: keep it to one short, printable line in the log. */
    private static String printable(String name) {
        String shown = name.length() > 64 ? name.substring(0, 64) + "..." : name;
        return shown.replaceAll("\\P{Print}", "?");
    }
}
