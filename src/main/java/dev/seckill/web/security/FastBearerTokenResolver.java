package dev.seckill.web.security;

import jakarta.servlet.http.HttpServletRequest;
import org.springframework.http.HttpHeaders;
import org.springframework.security.oauth2.server.resource.web.BearerTokenResolver;
import org.springframework.security.oauth2.server.resource.web.DefaultBearerTokenResolver;

/**
 * Spring Security's {@link DefaultBearerTokenResolver}, without its regular expression on the common case:
 * matching {@code ^Bearer (?<token>[a-zA-Z0-9-._~+/]+=*)$} against every shopper request's header takes 6% of
 * an order's time under load (JFR, docs/benchmarks.md). A header that is plainly {@code Bearer <token68>}
 * (RFC 6750's syntax, checked here character by character) is answered directly; anything else goes to the
 * default resolver, which gives exactly its own answers and errors.
 */
final class FastBearerTokenResolver implements BearerTokenResolver {

    private static final String PREFIX = "Bearer ";
    private static final boolean[] TOKEN68 = new boolean[128];

    static {
        for (char c = 'a'; c <= 'z'; c++) {
            TOKEN68[c] = true;
        }
        for (char c = 'A'; c <= 'Z'; c++) {
            TOKEN68[c] = true;
        }
        for (char c = '0'; c <= '9'; c++) {
            TOKEN68[c] = true;
        }
        for (char c : "-._~+/".toCharArray()) {
            TOKEN68[c] = true;
        }
    }

    private final BearerTokenResolver fallback = new DefaultBearerTokenResolver();

    @Override
    public String resolve(HttpServletRequest request) {
        String header = request.getHeader(HttpHeaders.AUTHORIZATION);
        if (header != null && isPlainBearer(header)) {
            return header.substring(PREFIX.length());
        }
        return fallback.resolve(request);
    }

    /** "Bearer " (any case), one or more token68 characters, then only '=' padding, and nothing else. */
    static boolean isPlainBearer(String header) {
        int length = header.length();
        if (length <= PREFIX.length() || !header.regionMatches(true, 0, PREFIX, 0, PREFIX.length())) {
            return false;
        }
        int i = PREFIX.length();
        while (i < length && header.charAt(i) < 128 && TOKEN68[header.charAt(i)]) {
            i++;
        }
        if (i == PREFIX.length()) {
            return false;
        }
        while (i < length && header.charAt(i) == '=') {
            i++;
        }
        return i == length;
    }
}
