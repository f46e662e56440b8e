package dev.seckill.web.security;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

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
import org.springframework.security.core.AuthenticationException;
import org.springframework.security.web.authentication.WebAuthenticationDetails;
import org.springframework.security.web.authentication.www.BasicAuthenticationConverter;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Prices password guessing: every failed admin login is logged (user name and address, never the password) and
 * counted in Redis per client address <em>and</em> user name, so all instances share the count; once a pair has spent
 * its failures, that address gets 429 on the admin side for that user name, before the password is even checked.
 * Behind Nginx the client address is the one Nginx saw ({@code server.forward-headers-strategy=native}).
 * <p>
 * Why both: counted per address alone, a stranger sharing the admin's address, or every client when the instance
 * sees one address for all of them, would lock the real admin out with ten wrong passwords. Counted per pair,
 * failures from one address never lock out another, and failures under another user name never lock out the
 * admin's. Guessing is no cheaper for it: only the admin's one user name can succeed, and from each address it
 * gets the same few tries a window as a count per address would give. The user name is kept in the key as a hash:
 * it is whatever the client sent, and Redis keys stay short and free of braces.
 */
@Component
public class AdminLoginLimiter {

    private static final Logger log = LoggerFactory.getLogger(AdminLoginLimiter.class);

    /** Spring's own reading of a Basic header (UTF-8), the one the Basic filter uses. */
    private static final BasicAuthenticationConverter BASIC = new BasicAuthenticationConverter();

    private final RedisRateLimiter limiter;
    private final RateLimitSettings.Limit failures;

    AdminLoginLimiter(RedisRateLimiter limiter, RateLimitSettings settings) {
        this.limiter = limiter;
        this.failures = settings.adminLoginFailures();
    }

    /**
     * The filter that refuses a spent address and user name, placed before Basic authentication in the admin chain
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
                String user = claimedUser(request);
                if (user == null) {
                    // not a Basic header Spring can read: Basic authentication refuses it as invalid credentials
                    chain.doFilter(request, response);
                    return;
                }
                boolean exhausted;
                try {
                    exhausted = limiter.isExhausted(key(request.getRemoteAddr(), user));
                } catch (RuntimeException countUnknown) {
                    // Redis out of reach: the failures cannot be counted, so no password is checked either (an
                    // unpriced guess is what this filter exists to stop). Answered as the problem any other
                    // outage gets, 503 backend-unavailable, not the servlet container's bare 500.
                    ProblemResponses.writeFailure(response, countUnknown, request.getRequestURI());
                    return;
                }
                if (exhausted) {
                    SecurityProblems.write(request, response, new SeckillProblem(ProblemCode.RATE_LIMITED,
                            "Too many failed admin logins from this address for this user; try again later",
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
            limiter.tryAcquire(key(address, attempt.getName()), failures);
        } catch (RuntimeException notCounted) {
            // Redis went away after the gate asked it: this failure goes uncounted, and the request is still
            // refused for its credentials.
            log.warn("Admin login failure from {} not counted: {}", address, notCounted.toString());
        }
    }

    /** The user name of a Basic header, as Basic authentication will read it, or null when it reads none. */
    private static String claimedUser(HttpServletRequest request) {
        try {
            UsernamePasswordAuthenticationToken claimed = BASIC.convert(request);
            return claimed == null ? null : claimed.getName();
        } catch (AuthenticationException malformed) {
            return null;
        }
    }

    /** One limiter per address and user name; the hash tag keeps a pair's keys in one Redis Cluster slot. */
    static String key(String address, String user) {
        return "admin-login-failures:{" + address + "}:" + userHash(user);
    }

    /** 16 bytes of SHA-256, hex: unique enough to tell user names apart, never the name itself. */
    private static String userHash(String user) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(user.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest, 0, 16);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }

    /** A user name is whatever the client sent: keep it to one short, printable line in the log. */
    private static String printable(String name) {
        String shown = name.length() > 64 ? name.substring(0, 64) + "..." : name;
        return shown.replaceAll("\\P{Print}", "?");
    }
}
