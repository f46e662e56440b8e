package dev.seckill.web.security;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.function.Function;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.http.HttpHeaders;
import org.springframework.security.web.csrf.CookieCsrfTokenRepository;
import org.springframework.security.web.csrf.CsrfToken;
import org.springframework.security.web.csrf.CsrfTokenRepository;
import org.springframework.security.web.csrf.DefaultCsrfToken;

/**
 * CSRF tokens the server signed for the credentials the request carries: {@code <nonce>.<mac>}, where the mac is
 * an HMAC-SHA256 over the nonce and the request's credentials (the shopper's cookie on the pages, the Basic
 * credentials on the admin side; none before sign-in). The token still travels as a double-submit cookie
 * ({@code XSRF-TOKEN}, Spring's {@link CookieCsrfTokenRepository}), but a cookie is only taken when its mac checks
 * out for this request's credentials.
 * <p>
 * Why: a plain double-submit cookie proves only that the cookie and the header agree, and anyone who can set a
 * cookie for the host (a page on another port, a sibling subdomain) can make them agree: {@code XSRF-TOKEN=x} and
 * the header {@code x} bought with a shopper's cookie. Now a token must come from the server, made for this
 * shopper's token (or this admin login): one made up, or one issued to another shopper, is refused as a missing
 * token would be (403 {@code csrf-rejected}). A token issued before sign-in is bound to nothing but its nonce, so
 * it proves only that this server made it; {@link SameOriginCsrfTokens} refuses what another site sends.
 * <p>
 * Stateless, as the chains are: any instance checks any token with the secret they share. The key is derived from
 * the shopper token secret, never that secret itself, so a CSRF mac can never pass for a token's signature.
 * The masking against BREACH stays Spring's ({@code XorCsrfTokenRequestAttributeHandler}) on top of these tokens.
 */
final class SignedCsrfTokens implements CsrfTokenRepository {

    /** What a token is bound to on the shop's pages: the shopper's token from the cookie, if any. */
    static final Function<HttpServletRequest, String> SHOPPER_COOKIE = request -> {
        String token = ShopperCookie.token(request);
        return "shop:" + (token == null ? "" : token);
    };

    /** What a token is bound to on the admin side: the Basic credentials the browser sends with every request. */
    static final Function<HttpServletRequest, String> ADMIN_LOGIN = request -> {
        String credentials = request.getHeader(HttpHeaders.AUTHORIZATION);
        return "admin:" + (credentials == null ? "" : credentials);
    };

    /** Spring's names, which the pages read from the token ({@code _csrf.headerName}) and csrf.js sends. */
    static final String HEADER = "X-XSRF-TOKEN";
    static final String PARAMETER = "_csrf";
    private static final String HMAC = "HmacSHA256";
    private static final int NONCE_BYTES = 16;
    private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();
    private static final Base64.Decoder DECODER = Base64.getUrlDecoder();

    private final CookieCsrfTokenRepository cookie = CookieCsrfTokenRepository.withHttpOnlyFalse();
    private final SecretKeySpec key;
    private final Function<HttpServletRequest, String> binding;
    private final SecureRandom random = new SecureRandom();

    SignedCsrfTokens(String sharedSecret, Function<HttpServletRequest, String> binding) {
        cookie.setHeaderName(HEADER);
        cookie.setParameterName(PARAMETER);
        this.key = new SecretKeySpec(derivedKey(sharedSecret), HMAC);
        this.binding = binding;
    }

    @Override
    public CsrfToken generateToken(HttpServletRequest request) {
        byte[] nonce = new byte[NONCE_BYTES];
        random.nextBytes(nonce);
        String encodedNonce = ENCODER.encodeToString(nonce);
        return token(encodedNonce + "." + ENCODER.encodeToString(mac(encodedNonce, binding.apply(request))));
    }

    @Override
    public void saveToken(CsrfToken token, HttpServletRequest request, HttpServletResponse response) {
        cookie.saveToken(token, request, response);
    }

    /** The cookie's token when this server signed it for this request's credentials; otherwise none. */
    @Override
    public CsrfToken loadToken(HttpServletRequest request) {
        CsrfToken stored = cookie.loadToken(request);
        return stored != null && signedFor(stored.getToken(), binding.apply(request)) ? token(stored.getToken()) : null;
    }

    /** Whatever a client sent: true only for {@code <nonce>.<mac>} with the right mac, never an exception. */
    boolean signedFor(String value, String boundTo) {
        int dot = value.indexOf('.');
        if (dot <= 0 || dot != value.lastIndexOf('.')) {
            return false;
        }
        String nonce = value.substring(0, dot);
        byte[] claimed;
        try {
            claimed = DECODER.decode(value.substring(dot + 1));
        } catch (IllegalArgumentException notBase64) {
            return false;
        }
        return MessageDigest.isEqual(mac(nonce, boundTo), claimed);
    }

    private byte[] mac(String nonce, String boundTo) {
        // The nonce is base64url (no '|'), so the boundary between the two parts is unambiguous.
        return hmac(key, nonce + "|" + boundTo);
    }

    private static CsrfToken token(String value) {
        return new DefaultCsrfToken(HEADER, PARAMETER, value);
    }

    /** A key of its own, from the shared secret: HMAC(secret, label), a one-step key derivation. */
    private static byte[] derivedKey(String sharedSecret) {
        return hmac(new SecretKeySpec(sharedSecret.getBytes(StandardCharsets.UTF_8), HMAC), "seckill csrf token key v1");
    }

    private static byte[] hmac(SecretKeySpec key, String message) {
        try {
            // A Mac is not thread-safe and costs about a microsecond to make: one per call
            Mac mac = Mac.getInstance(HMAC);
            mac.init(key);
            return mac.doFinal(message.getBytes(StandardCharsets.UTF_8));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is part of every JDK", e);
        }
    }
}
