package dev.seckill.web.security;

import java.util.function.Supplier;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.security.web.csrf.CsrfToken;
import org.springframework.security.web.csrf.CsrfTokenRequestHandler;
import org.springframework.security.web.csrf.XorCsrfTokenRequestAttributeHandler;

/**
 * Spring's masked CSRF tokens (a fresh mask on every page against BREACH), except that a change a browser says
 * another origin sent ({@code Sec-Fetch-Site: same-site} or {@code cross-site}) counts as carrying no token at all,
 * so it is refused as 403 {@code csrf-rejected} whatever it carries.
 * <p>
 * Why, beside {@link SignedCsrfTokens}: a token issued before sign-in is bound to no one, so a page on a sibling
 * subdomain or another port could fetch one from us, plant it in the shopper's cookie and post our sign-in form with
 * it (signing the shopper in as someone else). The browser names such a request's origin, and a script cannot make
 * it lie. {@code same-origin} (our own pages) and {@code none} (typed or bookmarked by the person) pass; a request
 * without the header (curl, JMeter, a browser from before 2020-2023) is judged by its token alone.
 */
final class SameOriginCsrfTokens implements CsrfTokenRequestHandler {

    private final XorCsrfTokenRequestAttributeHandler masked = new XorCsrfTokenRequestAttributeHandler();

    @Override
    public void handle(HttpServletRequest request, HttpServletResponse response, Supplier<CsrfToken> token) {
        masked.handle(request, response, token);
    }

    @Override
    public String resolveCsrfTokenValue(HttpServletRequest request, CsrfToken token) {
        return fromAnotherOrigin(request) ? null : masked.resolveCsrfTokenValue(request, token);
    }

    static boolean fromAnotherOrigin(HttpServletRequest request) {
        String site = request.getHeader("Sec-Fetch-Site");
        return site != null && !"same-origin".equalsIgnoreCase(site) && !"none".equalsIgnoreCase(site);
    }
}
