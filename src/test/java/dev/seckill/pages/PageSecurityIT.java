package dev.seckill.pages;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.seckill.support.Api;
import dev.seckill.support.Instances;
import dev.seckill.support.TestServers;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the pages add to the attack surface, checked over plain HTTP against a real instance: the shopper's
 * cookie buys nothing without the page's CSRF token, a browser's change to the admin side needs one too
 * (ambient Basic credentials), a forged cookie is forgotten, and sign-in never redirects off the site.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class PageSecurityIT {

    static final String ADMIN = "Basic " + Base64.getEncoder().encodeToString(
            (TestServers.ADMIN_USER + ":" + TestServers.ADMIN_PASSWORD).getBytes(StandardCharsets.UTF_8));
    static final Pattern META_TOKEN = Pattern.compile("<meta name=\"csrf-token\" content=\"([^\"]+)\">");

    static ConfigurableApplicationContext app;
    static Api api;
    static String base;
    static final HttpClient http = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).build();

    @BeforeAll
    static void instance() {
        // test shoppers only on an instance that listens on loopback (it refuses to start otherwise), as scripts/cluster runs it
        app = Instances.start("async", "page-security",
                Map.of("seckill.sign-in.test-shoppers", "true", "server.address", "127.0.0.1"));
        api = new Api(Instances.port(app));
        base = "http://127.0.0.1:" + Instances.port(app);
    }

    @AfterAll
    static void stop() {
        if (app != null) {
            app.close();
        }
    }

    @Test
    void theShopperCookieBuysOnlyWithThePagesCsrfToken() throws Exception {
        long voucherId = api.createVoucher(5);
        String cookie = "seckill_shopper=" + api.mintShoppers(1).get(0);

        HttpResponse<String> noToken = send(post("/shop/seckill/" + voucherId, "Cookie", cookie));
        assertThat(noToken.statusCode()).isEqualTo(403);
        assertThat(code(noToken)).isEqualTo("csrf-rejected");
        assertThat(api.audit(voucherId).path("pendingOrders").asLong() + api.audit(voucherId).path("orders").asLong())
                .as("nothing bought").isZero();

        HttpResponse<String> page = send(get("/sales/" + voucherId, "Cookie", cookie));
        assertThat(page.statusCode()).isEqualTo(200);
        String xsrfCookie = setCookie(page, "XSRF-TOKEN");
        Matcher token = META_TOKEN.matcher(page.body());
        assertThat(token.find()).as("the page carries its CSRF token").isTrue();

        HttpResponse<String> bought = send(post("/shop/seckill/" + voucherId, "Cookie", cookie + "; XSRF-TOKEN=" + xsrfCookie,
                "X-XSRF-TOKEN", token.group(1)));
        assertThat(bought.statusCode()).as(bought.body()).isEqualTo(202);
        String orderId = JsonMapper.shared().readTree(bought.body()).path("orderId").asString();
        HttpResponse<String> order = send(get("/shop/orders/" + orderId, "Cookie", cookie));
        assertThat(order.statusCode()).isEqualTo(200);
    }

    @Test
    void theJsonApiTakesNoCookieAndThePagesTakeNoBearerHeader() throws Exception {
        long voucherId = api.createVoucher(5);
        String token = api.mintShoppers(1).get(0);

        HttpResponse<String> cookieOnApi = send(post("/seckill/" + voucherId, "Cookie", "seckill_shopper=" + token));
        assertThat(cookieOnApi.statusCode()).isEqualTo(401);
        assertThat(code(cookieOnApi)).isEqualTo("token-missing");

        HttpResponse<String> headerOnPages = send(get("/shop/orders/1", "Authorization", "Bearer " + token));
        assertThat(headerOnPages.statusCode()).isEqualTo(401);
        assertThat(code(headerOnPages)).isEqualTo("token-missing");
    }

    @Test
    void aBrowsersChangeToTheAdminSideNeedsTheCsrfTokenAScriptsDoesNot() throws Exception {
        HttpResponse<String> crossSite = send(post("/admin/shoppers?count=1", "Authorization", ADMIN,
                "Sec-Fetch-Site", "cross-site"));
        assertThat(crossSite.statusCode()).isEqualTo(403);
        assertThat(code(crossSite)).isEqualTo("csrf-rejected");

        HttpResponse<String> sameSiteWithoutToken = send(post("/admin/shoppers?count=1", "Authorization", ADMIN,
                "Sec-Fetch-Site", "same-origin"));
        assertThat(sameSiteWithoutToken.statusCode()).isEqualTo(403);

        HttpResponse<String> page = send(get("/admin/ui", "Authorization", ADMIN));
        assertThat(page.statusCode()).isEqualTo(200);
        Matcher token = META_TOKEN.matcher(page.body());
        assertThat(token.find()).isTrue();
        HttpResponse<String> fromThePage = send(post("/admin/shoppers?count=1", "Authorization", ADMIN,
                "Sec-Fetch-Site", "same-origin", "Cookie", "XSRF-TOKEN=" + setCookie(page, "XSRF-TOKEN"),
                "X-XSRF-TOKEN", token.group(1)));
        assertThat(fromThePage.statusCode()).isEqualTo(201);

        HttpResponse<String> script = send(post("/admin/shoppers?count=1", "Authorization", ADMIN));
        assertThat(script.statusCode()).as("curl, JMeter: no browser, no token needed").isEqualTo(201);
    }

    @Test
    void theAdminPagesAskForTheAdminLogin() throws Exception {
        for (String path : List.of("/admin/ui", "/admin/ui/vouchers/new", "/admin/ui/vouchers/1")) {
            HttpResponse<String> anonymous = send(get(path));
            assertThat(anonymous.statusCode()).as(path).isEqualTo(401);
            assertThat(anonymous.headers().firstValue("WWW-Authenticate")).hasValueSatisfying(
                    value -> assertThat(value).startsWith("Basic"));
        }
    }

    @Test
    void aForgedCookieIsForgottenAndTheShopperSentToSignIn() throws Exception {
        HttpResponse<String> forged = send(get("/", "Cookie", "seckill_shopper=eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.forged"));
        assertThat(forged.statusCode()).isEqualTo(302);
        assertThat(forged.headers().firstValue("Location")).hasValueSatisfying(
                location -> assertThat(location).contains("/sign-in?expired"));
        assertThat(forged.headers().allValues("Set-Cookie")).anySatisfy(
                cookie -> assertThat(cookie).startsWith("seckill_shopper=;").contains("Max-Age=0"));

        HttpResponse<String> anonymous = send(get("/my/orders"));
        assertThat(anonymous.statusCode()).isEqualTo(302);
        assertThat(anonymous.headers().firstValue("Location")).hasValueSatisfying(
                location -> assertThat(location).endsWith("/sign-in?next=" + URLEncoder.encode("/my/orders", StandardCharsets.UTF_8)));
    }

    @Test
    void signingInSetsAnHttpOnlyStrictCookieAndNeverRedirectsOffTheSite() throws Exception {
        HttpResponse<String> form = send(get("/sign-in"));
        String xsrf = setCookie(form, "XSRF-TOKEN");
        Matcher token = META_TOKEN.matcher(form.body());
        assertThat(token.find()).isTrue();
        for (String next : List.of("//evil.example/x", "https://evil.example/", "/\\evil.example")) {
            HttpResponse<String> signedIn = send(HttpRequest.newBuilder(URI.create(base + "/sign-in/test-shopper"))
                    .header("Content-Type", "application/x-www-form-urlencoded").header("Cookie", "XSRF-TOKEN=" + xsrf)
                    .POST(HttpRequest.BodyPublishers.ofString("_csrf=" + URLEncoder.encode(token.group(1), StandardCharsets.UTF_8)
                            + "&next=" + URLEncoder.encode(next, StandardCharsets.UTF_8))).build());
            assertThat(signedIn.statusCode()).as(next).isEqualTo(302);
            assertThat(URI.create(signedIn.headers().firstValue("Location").orElseThrow()).getPath()).as(next).isEqualTo("/");
            assertThat(URI.create(signedIn.headers().firstValue("Location").orElseThrow()).getHost()).as(next)
                    .isIn(null, "127.0.0.1", "localhost");
            assertThat(signedIn.headers().allValues("Set-Cookie")).anySatisfy(cookie -> assertThat(cookie)
                    .startsWith("seckill_shopper=ey").contains("HttpOnly").contains("SameSite=Strict"));
        }

        HttpResponse<String> withoutToken = send(HttpRequest.newBuilder(URI.create(base + "/sign-in/test-shopper"))
                .header("Content-Type", "application/x-www-form-urlencoded").POST(HttpRequest.BodyPublishers.ofString("next=/"))
                .build());
        assertThat(withoutToken.statusCode()).isEqualTo(403);
        assertThat(withoutToken.headers().allValues("Set-Cookie")).noneMatch(cookie -> cookie.startsWith("seckill_shopper="));
    }

    @Test
    void pagesForbidForeignResourcesAndFraming() throws Exception {
        HttpResponse<String> page = send(get("/"));
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.headers().firstValue("Content-Security-Policy")).hasValueSatisfying(policy -> assertThat(policy)
                .contains("default-src 'self'").contains("script-src 'self'").contains("frame-ancestors 'none'"));
        assertThat(page.headers().firstValue("Content-Type")).hasValueSatisfying(type -> assertThat(type).startsWith("text/html"));
    }

    private static HttpRequest get(String path, String... headers) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(10)).GET();
        return headers.length == 0 ? request.build() : request.headers(headers).build();
    }

    private static HttpRequest post(String path, String... headers) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(10))
                .POST(HttpRequest.BodyPublishers.noBody());
        return headers.length == 0 ? request.build() : request.headers(headers).build();
    }

    private static HttpResponse<String> send(HttpRequest request) throws Exception {
        return http.send(request, HttpResponse.BodyHandlers.ofString());
    }

    private static String code(HttpResponse<String> response) {
        JsonNode body = JsonMapper.shared().readTree(response.body());
        return body.path("code").asString();
    }

    private static String setCookie(HttpResponse<?> response, String name) {
        return response.headers().allValues("Set-Cookie").stream().filter(cookie -> cookie.startsWith(name + "="))
                .map(cookie -> cookie.substring(name.length() + 1, cookie.indexOf(';') > 0 ? cookie.indexOf(';') : cookie.length()))
                .findFirst().orElseThrow(() -> new AssertionError("no " + name + " cookie in " + response.headers().map()));
    }
}
