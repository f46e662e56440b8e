package dev.seckill.web;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import dev.seckill.support.NginxFrontedTest;
import dev.seckill.support.RawHttp;
import dev.seckill.support.TestServers;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

/**
 * What a client says about itself and the site does not steer the instance: a redirect never names the host the
 * client sent (Host, X-Forwarded-Host, Forwarded), through Nginx or straight to an instance, even from the trusted
 * proxy's own address; and only the trusted proxy (seckill.web.trusted-proxies, 127.0.0.1 by default) may say which
 * address a request comes from, so a client cannot pick the address the per-address limits count. Nginx's own
 * redirects (a prefix location asked for without its trailing slash) are paths too.
 */
@ExtendWith(OutputCaptureExtension.class)
class ForwardedHeadersIT extends NginxFrontedTest {

    static final String WRONG_PASSWORD = basic(TestServers.ADMIN_USER, "a-guess");
    static final String RIGHT_PASSWORD = basic(TestServers.ADMIN_USER, TestServers.ADMIN_PASSWORD);

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

    /**
     * Every prefix location of the repository's Nginx rules, read from nginx/seckill-server.conf so that a location
     * added there is covered too: each asked for as it is written, without its trailing slash (where Nginx itself
     * answers 301 to the slashed path) and with it.
     */
    static Stream<String> everyNginxPrefix() throws IOException {
        Matcher location = Pattern.compile("(?m)^\\s*location\\s+(?:\\^~\\s+)?(/\\S*)\\s*\\{")
                .matcher(Files.readString(Path.of("nginx/seckill-server.conf")));
        List<String> prefixes = location.results().map(found -> found.group(1)).toList();
        // were the pattern to stop matching, every case below would pass without asking anything
        assertThat(prefixes).as("the prefix locations of nginx/seckill-server.conf")
                .contains("/seckill/", "/shop/seckill/", "/css/", "/js/", "/webjars/", "/admin", "/");
        return prefixes.stream()
                .flatMap(prefix -> Stream.of(prefix, prefix.endsWith("/") ? prefix.substring(0, prefix.length() - 1) : prefix + "/"))
                .filter(path -> !path.isEmpty())
                .distinct();
    }

    @ParameterizedTest
    @MethodSource("everyNginxPrefix")
    void noAnswerThroughNginxNamesTheHostTheClientSent(String path) {
        for (String method : List.of("GET", "POST")) {
            RawHttp.Answer answer = RawHttp.sendRaw("127.0.0.1", nginx.port(), method + " " + path + " HTTP/1.1\r\n"
                    + "Host: evil.example\r\nX-Forwarded-Host: evil.example\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
            String where = method + " " + path + " (answered " + answer.status() + ")";
            String location = answer.header("Location");
            if (location != null) {
                assertThat(location).as(where).startsWith("/").doesNotStartWith("//").doesNotContain("evil");
            }
            assertThat(answer.body()).as(where).doesNotContain("evil");
        }
    }

    private static void expectRelativeRedirect(int target, String where, String headers) {
        RawHttp.Answer answer = RawHttp.sendRaw("127.0.0.1", target,
                "GET /my/orders HTTP/1.1\r\n" + headers + "\r\nConnection: close\r\n\r\n");
        assertThat(answer.status()).as(where).isEqualTo(302);
        assertThat(answer.header("Location")).as(where).startsWith("/sign-in?").doesNotContain("evil");
    }

    @Test
    void aClientReachingTheInstanceDirectlyCannotChooseItsAddress(CapturedOutput output) {
        String client = "127.0.0.3";
        RawHttp.Answer spent = failUntilLimited(client, port);
        assertThat(spent.header("X-Instance-Id")).as("the app's own limit").isEqualTo("test-instance");
        // the right password, claiming yet another address: the request still comes from the spent one
        RawHttp.send(client, port, "GET /admin/vouchers/1", null, "Authorization", RIGHT_PASSWORD,
                "X-Forwarded-For", "198.18.0.200").expectProblem(429, "rate-limited");
        assertThat(output.getAll()).contains("Admin login failed for user '" + TestServers.ADMIN_USER + "' from " + client)
                .doesNotContain("from 198.18.0.");
    }

    @Test
    void behindNginxTheAddressIsTheOneNginxSaw(CapturedOutput output) {
        String client = "127.0.0.4";
        RawHttp.Answer spent = failUntilLimited(client, nginx.port());
        assertThat(spent.header("X-Instance-Id")).as("the app's own limit, not Nginx's").isEqualTo("test-instance");
        assertThat(output.getAll()).contains("Admin login failed for user '" + TestServers.ADMIN_USER + "' from " + client)
                .doesNotContain("from 198.18.0.");
    }

    /**
     * Failed admin logins from {@code client}, each claiming another address in X-Forwarded-For, until the app's
     * limit of failures per address (10 a minute) refuses: were the claims believed, each failure would count
     * against a fresh address and none would be refused. At most 15, below Nginx's own burst on the admin side.
     */
    private static RawHttp.Answer failUntilLimited(String client, int target) {
        for (int i = 1; i <= 15; i++) {
            RawHttp.Answer answer = RawHttp.send(client, target, "GET /admin/vouchers/1", null, "Authorization", WRONG_PASSWORD,
                    "X-Forwarded-For", "198.18.0." + i);
            if (answer.status() == 429) {
                return answer.expectProblem(429, "rate-limited");
            }
            answer.expectProblem(401, "admin-credentials-invalid");
        }
        throw new AssertionError("15 failed logins from " + client + ", each claiming another address, were never limited");
    }

    private static String basic(String user, String password) {
        return "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
    }
}
