package dev.seckill.web.security;

import java.time.Clock;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.security.oauth2.jwt.JwtDecoder;

/** The one decoder every filter chain and the sign-in page check shopper tokens with. */
@Configuration(proxyBeanMethods = false)
class ShopperTokenVerification {

    @Bean
    JwtDecoder shopperTokenDecoder(AuthSettings settings, Clock clock) {
        return new CachingJwtDecoder(ShopperTokens.decoder(settings, clock), clock);
    }
}
