package dev.seckill.web.security;

import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

import jakarta.servlet.http.Cookie;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.http.ResponseCookie;
import dev.seckill.web.ProblemCode;
import org.springframework.security.authentication.InsufficientAuthenticationException;
import org.springframework.security.web.AuthenticationEntryPoint;

/**
 * The shopper's token for the pages: the same JWT the JSON API takes as a bearer token, kept in a cookie
 * that page scripts cannot read (HttpOnly) and that no other site's request carries (SameSite=Strict).
 * The page chain reads it instead of an {@code Authorization} header, and takes a CSRF token besides.
 */
public final class ShopperCookie {

    public static final String NAME = "seckill_shopper";

    private ShopperCookie() {
    }

    /** The token, or null: the page chain's bearer token resolver. */
    static String token(HttpServletRequest request) {
        Cookie[] cookies = request.getCookies();
        if (cookies == null) {
            return null;
        }
        for (Cookie cookie : cookies) {
            if (NAME.equals(cookie.getName()) && !cookie.getValue().isBlank()) {
                return cookie.getValue();
            }
        }
        return null;
    }

    /** Signs the shopper in for {@code lifetime} (the token's own): Secure when the request came over TLS. */
    public static void set(HttpServletRequest request, HttpServletResponse response, String token, Duration lifetime) {
        response.addHeader("Set-Cookie", cookie(request, token, lifetime).toString());
    }

    public static void clear(HttpServletRequest request, HttpServletResponse response) {
        response.addHeader("Set-Cookie", cookie(request, "", Duration.ZERO).toString());
    }

    private static ResponseCookie cookie(HttpServletRequest request, String value, Duration lifetime) {
        return ResponseCookie.from(NAME, value).httpOnly(true).sameSite("Strict").secure(request.isSecure()).path("/")
                .maxAge(lifetime).build();
    }

    /**
     * A cookie whose token no longer verifies (expired, or signed with a rotated secret): forget it, then
     * a page sends the shopper to sign in again, and a page script's call gets the API's 401 problem.
     */
    static AuthenticationEntryPoint signInAgain() {
        AuthenticationEntryPoint problem = SecurityProblems.shopper();
        return (request, response, failure) -> {
            boolean hadCookie = token(request) != null;
            if (hadCookie) {
                clear(request, response);
            }
            if (request.getRequestURI().startsWith("/shop/")) {
                if (failure instanceof InsufficientAuthenticationException) {
                    // no cookie: whatever Authorization header came along, the pages do not read it
                    SecurityProblems.write(request, response, ProblemCode.TOKEN_MISSING);
                } else {
                    problem.commence(request, response, failure);
                }
            } else {
                redirectToSignIn(request, response, hadCookie);
            }
        };
    }

    private static void redirectToSignIn(HttpServletRequest request, HttpServletResponse response, boolean expired)
            throws IOException {
        String back = request.getRequestURI();
        response.sendRedirect("/sign-in?" + (expired ? "expired&" : "") + "next="
                + URLEncoder.encode(back, StandardCharsets.UTF_8));
    }
}
