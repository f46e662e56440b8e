package dev.seckill.web.security;

import dev.seckill.web.security.ShopperTokens;

import java.io.IOException;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import dev.seckill.web.ProblemCode;
import dev.seckill.web.ProblemResponses;
import dev.seckill.web.SeckillProblem;
import org.springframework.http.HttpHeaders;
import org.springframework.security.authentication.InsufficientAuthenticationException;
import org.springframework.security.core.AuthenticationException;
import org.springframework.security.oauth2.core.OAuth2Error;
import org.springframework.security.oauth2.jwt.JwtValidationException;
import org.springframework.security.web.AuthenticationEntryPoint;
import org.springframework.security.web.csrf.CsrfException;
import org.springframework.security.web.access.AccessDeniedHandler;
import org.springframework.security.web.firewall.RequestRejectedHandler;

/**
 * Spring Security's refusals, written as the same RFC 9457 problems (and stable codes) as the rest of
 * the API. Each chain picks the ones that fit it.
 */
final class SecurityProblems {

    private SecurityProblems() {
    }

    /** Admin side: no Basic credentials, or wrong ones. */
    static AuthenticationEntryPoint admin() {
        return (request, response, failure) -> write(request, response,
                failure instanceof InsufficientAuthenticationException
                        ? ProblemCode.ADMIN_CREDENTIALS_MISSING : ProblemCode.ADMIN_CREDENTIALS_INVALID);
    }

    /** Shopper side: no bearer token, a token that fails its checks, or one past its expiry. */
    static AuthenticationEntryPoint shopper() {
        return (request, response, failure) -> write(request, response, shopperCode(request, failure));
    }

    /** A path nobody may call (the shopper chain denies whatever it does not list): as if it did not exist. */
    static AuthenticationEntryPoint notFound() {
        return (request, response, failure) -> write(request, response, ProblemCode.NOT_FOUND);
    }

    static AccessDeniedHandler notFoundWhenDenied() {
        return (request, response, denied) -> write(request, response, ProblemCode.NOT_FOUND);
    }

    /** A missing or wrong CSRF token says so (csrf-rejected); any other denial is access-denied. */
    static AccessDeniedHandler accessDenied() {
        return (request, response, denied) -> write(request, response,
                denied instanceof CsrfException ? ProblemCode.CSRF_REJECTED : ProblemCode.ACCESS_DENIED);
    }

    /** Spring Security's firewall refused the URL (encoded slashes, {@code //}, dot segments, {@code ;}, ...). */
    static RequestRejectedHandler requestRejected() {
        return (request, response, rejected) -> write(request, response, ProblemCode.REQUEST_REJECTED);
    }

    private static ProblemCode shopperCode(HttpServletRequest request, AuthenticationException failure) {
        if (failure instanceof InsufficientAuthenticationException) {
            String header = request.getHeader(HttpHeaders.AUTHORIZATION);
            return header == null || header.isBlank() ? ProblemCode.TOKEN_MISSING : ProblemCode.TOKEN_INVALID;
        }
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof JwtValidationException invalid
                    && invalid.getErrors().stream().map(OAuth2Error::getErrorCode).anyMatch(ShopperTokens.EXPIRED::equals)) {
                return ProblemCode.TOKEN_EXPIRED;
            }
        }
        return ProblemCode.TOKEN_INVALID;
    }

    static void write(HttpServletRequest request, HttpServletResponse response, ProblemCode code) throws IOException {
        write(request, response, new SeckillProblem(code));
    }

    static void write(HttpServletRequest request, HttpServletResponse response, SeckillProblem problem)
            throws IOException {
        if (response.isCommitted()) {
            return;
        }
        response.resetBuffer();
        // The raw URI: a rejected one may not decode, and the body must never echo more than asked.
        ProblemResponses.write(response, problem, request.getRequestURI());
    }
}
