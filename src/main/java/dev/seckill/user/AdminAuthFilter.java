package dev.seckill.user;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Base64;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import dev.seckill.web.ProblemCode;
import dev.seckill.web.SeckillProblem;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.http.HttpHeaders;
import org.springframework.web.filter.OncePerRequestFilter;
import org.springframework.web.servlet.HandlerExceptionResolver;

/**
 * HTTP Basic for {@code /admin/**} and every actuator endpoint but health. A filter rather than an
 * interceptor because actuator endpoints bypass MVC interceptors; refusals still go through the one
 * exception handler, so they look like every other problem.
 */
class AdminAuthFilter extends OncePerRequestFilter {

    private static final String BASIC = "Basic ";

    private final byte[] expected;
    private final HandlerExceptionResolver problems;

    AdminAuthFilter(AuthSettings settings, @Qualifier("handlerExceptionResolver") HandlerExceptionResolver problems) {
        this.expected = (settings.adminUser() + ":" + settings.adminPassword()).getBytes(StandardCharsets.UTF_8);
        this.problems = problems;
    }

    @Override
    protected boolean shouldNotFilter(HttpServletRequest request) {
        String path = request.getRequestURI().substring(request.getContextPath().length());
        boolean adminOnly = path.startsWith("/admin") || path.startsWith("/actuator");
        boolean publicHealth = path.equals("/actuator/health") || path.startsWith("/actuator/health/");
        return !adminOnly || publicHealth;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        String header = request.getHeader(HttpHeaders.AUTHORIZATION);
        if (header == null || !header.regionMatches(true, 0, BASIC, 0, BASIC.length())) {
            problems.resolveException(request, response, null, new SeckillProblem(ProblemCode.ADMIN_CREDENTIALS_MISSING));
            return;
        }
        if (!MessageDigest.isEqual(decode(header.substring(BASIC.length()).trim()), expected)) {
            problems.resolveException(request, response, null, new SeckillProblem(ProblemCode.ADMIN_CREDENTIALS_INVALID));
            return;
        }
        chain.doFilter(request, response);
    }

    private static byte[] decode(String credentials) {
        try {
            return Base64.getDecoder().decode(credentials);
        } catch (IllegalArgumentException e) {
            return new byte[0];
        }
    }
}
