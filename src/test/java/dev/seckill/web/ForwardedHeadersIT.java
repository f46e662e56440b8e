package dev.seckill.web;

import java.util.stream.Stream;

import dev.seckill.support.NginxFrontedTest;
import dev.seckill.support.RawHttp;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

/**
 * What a client says about itself and the site does not steer the instance: a redirect never names the host the
 * client sent (Host, X-Forwarded-Host, Forwarded), through Nginx or straight to an instance, even from the trusted
 * proxy's own address.
 */
class ForwardedHeadersIT extends NginxFrontedTest {

    static Stream<Arguments> hostsAClientMightClaim() {
        return Stream.of(
                arguments("Host: evil.example"),
                arguments("Host: evil.example:8080"),
                arguments("Host: localhost\r\nX-Forwarded-Host: evil.example"),
                arguments("Host: localhost\r\nX-Forwarded-Host: evil.example\r\nX-Forwarded-Proto: https\r\nX-Forwarded-Port: 443"),
                arguments("Host: localhost\r\nForwarded: host=evil.example;proto=https"));
    }

    @ParameterizedTest
    @MethodSource("hostsAClientMightClaim")
    void aRedirectThroughNginxNeverNamesTheHostTheClientSent(String headers) {
        expectRelativeRedirect(nginx.port(), "Nginx with " + headers.replace("\r\n", ", "), headers);
    }

    @ParameterizedTest
    @MethodSource("hostsAClientMightClaim")
    void aRedirectStraightFromTheInstanceNeverNamesTheHostTheClientSent(String headers) {
        // from 127.0.0.1: the trusted proxy's own address, whose forwarded headers count the most
        expectRelativeRedirect(port, "the instance with " + headers.replace("\r\n", ", "), headers);
    }

    private static void expectRelativeRedirect(int target, String where, String headers) {
        RawHttp.Answer answer = RawHttp.sendRaw("127.0.0.1", target,
                "GET /my/orders HTTP/1.1\r\n" + headers + "\r\nConnection: close\r\n\r\n");
        assertThat(answer.status()).as(where).isEqualTo(302);
        assertThat(answer.header("Location")).as(where).startsWith("/sign-in?").doesNotContain("evil");
    }
}
