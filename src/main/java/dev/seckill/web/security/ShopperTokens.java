package dev.seckill.web.security;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import javax.crypto.SecretKey;
import javax.crypto.spec.SecretKeySpec;

import org.springframework.security.authentication.AbstractAuthenticationToken;
import org.springframework.security.core.GrantedAuthority;
import org.springframework.security.core.authority.AuthorityUtils;
import org.springframework.security.oauth2.core.DelegatingOAuth2TokenValidator;
import org.springframework.security.oauth2.core.OAuth2Error;
import org.springframework.security.oauth2.core.OAuth2ErrorCodes;
import org.springframework.security.oauth2.core.OAuth2TokenValidator;
import org.springframework.security.oauth2.core.OAuth2TokenValidatorResult;
import org.springframework.security.oauth2.jose.jws.MacAlgorithm;
import org.springframework.security.oauth2.jwt.JwsHeader;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.jwt.JwtClaimNames;
import org.springframework.security.oauth2.jwt.JwtClaimsSet;
import org.springframework.security.oauth2.jwt.JwtDecoder;
import org.springframework.security.oauth2.jwt.JwtEncoder;
import org.springframework.security.oauth2.jwt.JwtEncoderParameters;
import org.springframework.security.oauth2.jwt.JwtIssuerValidator;
import org.springframework.security.oauth2.jwt.JwtTimestampValidator;
import org.springframework.security.oauth2.jwt.MappedJwtClaimSetConverter;
import org.springframework.security.oauth2.jwt.NimbusJwtDecoder;
import org.springframework.security.oauth2.jwt.NimbusJwtEncoder;
import org.springframework.stereotype.Component;

/**
 * Shopper tokens are standard JWTs (HS256, signed with the secret every instance shares), so any
 * instance checks any token with no Redis or MySQL call: {@code sub} is the shopper id, {@code exp} its
 * end, {@code iss} this platform. Issued here; checked by Spring Security's resource server with
 * {@link #decoder}.
 */
@Component
public class ShopperTokens {

    static final String ISSUER = "seckill";
    /** The error code the expiry check gives, so the entry point can answer token-expired, not token-invalid. */
    public static final String EXPIRED = "token_expired";
    static final List<GrantedAuthority> SHOPPER = AuthorityUtils.createAuthorityList("ROLE_SHOPPER");

    private final JwtEncoder encoder;
    private final Duration ttl;
    private final Clock clock;

    ShopperTokens(AuthSettings settings, Clock clock) {
        this.encoder = NimbusJwtEncoder.withSecretKey(key(settings.tokenSecret())).algorithm(MacAlgorithm.HS256).build();
        this.ttl = settings.tokenTtl();
        this.clock = clock;
    }

    public String issue(long shopperId) {
        Instant now = clock.instant();
        JwtClaimsSet claims = JwtClaimsSet.builder().issuer(ISSUER).subject(Long.toString(shopperId))
                .issuedAt(now).expiresAt(now.plus(ttl)).build();
        return encoder.encode(JwtEncoderParameters.from(JwsHeader.with(MacAlgorithm.HS256).build(), claims))
                .getTokenValue();
    }

    /** Signature (HS256 only), issuer, expiry with no leeway, and a subject that is a shopper id. */
    public static JwtDecoder decoder(AuthSettings settings, Clock clock) {
        NimbusJwtDecoder decoder = NimbusJwtDecoder.withSecretKey(key(settings.tokenSecret()))
                .macAlgorithm(MacAlgorithm.HS256).build();
        // The default converter tries to read "iss" as a URL; ours is a plain name, so every token paid for
        // a thrown and caught exception. Kept as the string it is.
        decoder.setClaimSetConverter(MappedJwtClaimSetConverter.withDefaults(Map.of(JwtClaimNames.ISS, String::valueOf)));
        decoder.setJwtValidator(new DelegatingOAuth2TokenValidator<>(
                new JwtIssuerValidator(ISSUER), notExpired(clock), ShopperTokens::shopperSubject));
        return decoder;
    }

    /** The authentication of a request whose token passed {@link #decoder}. */
    public static AbstractAuthenticationToken authentication(Jwt jwt) {
        return new ShopperAuthentication(new CurrentShopper(Long.parseLong(jwt.getSubject())), jwt.getTokenValue());
    }

    private static OAuth2TokenValidator<Jwt> notExpired(Clock clock) {
        JwtTimestampValidator timestamps = new JwtTimestampValidator(Duration.ZERO);
        timestamps.setAllowEmptyExpiryClaim(false);
        timestamps.setClock(clock);
        return jwt -> {
            OAuth2TokenValidatorResult result = timestamps.validate(jwt);
            if (!result.hasErrors() || jwt.getExpiresAt() == null) {
                return result;
            }
            return OAuth2TokenValidatorResult.failure(new OAuth2Error(EXPIRED, "The token has expired", null));
        };
    }

    private static OAuth2TokenValidatorResult shopperSubject(Jwt jwt) {
        try {
            if (jwt.getSubject() != null && Long.parseLong(jwt.getSubject()) > 0) {
                return OAuth2TokenValidatorResult.success();
            }
        } catch (NumberFormatException notAnId) {
            // falls through to the failure below
        }
        return OAuth2TokenValidatorResult.failure(
                new OAuth2Error(OAuth2ErrorCodes.INVALID_TOKEN, "The token names no shopper", null));
    }

    private static SecretKey key(String secret) {
        return new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256");
    }

    /** A shopper's request, authenticated by its token; the principal is the {@link CurrentShopper}. */
    static final class ShopperAuthentication extends AbstractAuthenticationToken {

        private final CurrentShopper shopper;
        private final String token;

        ShopperAuthentication(CurrentShopper shopper, String token) {
            super(SHOPPER);
            this.shopper = shopper;
            this.token = token;
            setAuthenticated(true);
        }

        @Override
        public CurrentShopper getPrincipal() {
            return shopper;
        }

        @Override
        public String getCredentials() {
            return token;
        }
    }
}
