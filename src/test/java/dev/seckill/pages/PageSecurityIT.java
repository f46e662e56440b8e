package dev.seckill.pages;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.seckill.support.Api;
import dev.seckill.support.Instances;
import dev.seckill.support.Nginx;
import dev.seckill.support.RawHttp;
import dev.seckill.support.TestServers;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * What the pages add to the attack surface, checked over plain HTTP through the repository's Nginx to a real
 * instance, as a browser or an attacker reaches it: the shopper's cookie buys nothing without a CSRF token the
 * server issued for that shopper (a cookie and header pair set up by someone else, or another shopper's token, is
 * refused), a browser's change to the admin side needs one too (ambient Basic credentials), a change another origin
 * sends is refused whatever it carries, a forged cookie is forgotten, sign-in never redirects off the site and no
 * parameter of the pages answers 500, and test shoppers are minted only on this machine.
 */
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class PageSecurityIT {

    static final String ADMIN = "Basic " + Base64.getEncoder().encodeToString(
            (TestServers.ADMIN_USER + ":" + TestServers.ADMIN_PASSWORD).getBytes(StandardCharsets.UTF_8));
    static final Pattern META_TOKEN = Pattern.compile("<meta name=\"csrf-token\" content=\"([^\"]+)\">");
    static final SecureRandom RANDOM = new SecureRandom();

    static ConfigurableApplicationContext app;
    static Nginx nginx;
    /** Set-up calls the browser does not make (vouchers, shoppers, audits), straight to the instance. */
    static Api api;
    /** Nginx, as a browser reaches the pages. */
    static String base;
    static JdbcTemplate db;
    static final HttpClient http = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).build();

    @BeforeAll
    static void instance() {
        app = Instances.start("async", "page-security",
                Map.of("seckill.sign-in.test-shoppers", "true", "server.address", "127.0.0.1"));
        api = new Api(Instances.port(app));
        nginx = Nginx.start(Instances.port(app), "");
        base = "http://127.0.0.1:" + nginx.port();
        db = app.getBean(JdbcTemplate.class);
    }

    @AfterAll
    static void stop() {
        if (nginx != null) {
            nginx.close();
        }
        if (app != null) {
            app.close();
        }
    }

    @Test
    void theShopperCookieBuysOnlyWithThePagesCsrfToken() throws Exception {
        long voucherId = api.createVoucher(5);
        String cookie = "seckill_shopper=" + api.mintShoppers(1).get(0);

        HttpResponse<String> noToken = send(post("/shop/seckill/" + voucherId, "Cookie", cookie));
        expectCsrfRejected(noToken);
        expectNothingBought(voucherId);

        PageToken page = pageToken("/sales/" + voucherId, cookie);
        HttpResponse<String> bought = send(post("/shop/seckill/" + voucherId, "Cookie", cookie + "; XSRF-TOKEN=" + page.cookie(),
                "X-XSRF-TOKEN", page.header()));
        assertThat(bought.statusCode()).as(bought.body()).isEqualTo(202);
        String orderId = JsonMapper.shared().readTree(bought.body()).path("orderId").asString();
        HttpResponse<String> order = send(get("/shop/orders/" + orderId, "Cookie", cookie));
        assertThat(order.statusCode()).isEqualTo(200);
    }

    /** The plain double-submit cookie took any value that the cookie and the header agreed on. */
    @Test
    void aCsrfCookieAndHeaderPairTheServerDidNotIssueBuysNothing() throws Exception {
        long voucherId = api.createVoucher(5);
        String shopper = "seckill_shopper=" + api.mintShoppers(1).get(0);
        for (String forged : forgedTokens()) {
            expectCsrfRejected(send(post("/shop/seckill/" + voucherId, "Cookie", shopper + "; XSRF-TOKEN=" + forged,
                    "X-XSRF-TOKEN", masked(forged))));
            expectCsrfRejected(send(post("/shop/seckill/" + voucherId, "Cookie", shopper + "; XSRF-TOKEN=" + forged,
                    "X-XSRF-TOKEN", forged)));
        }
        expectNothingBought(voucherId);
    }

    @Test
    void aTokenIssuedForOneShopperBuysNothingForAnother() throws Exception {
        long voucherId = api.createVoucher(5);
        List<String> tokens = api.mintShoppers(2);
        String a = "seckill_shopper=" + tokens.get(0);
        String b = "seckill_shopper=" + tokens.get(1);
        PageToken ofA = pageToken("/sales/" + voucherId, a);

        expectCsrfRejected(send(post("/shop/seckill/" + voucherId, "Cookie", b + "; XSRF-TOKEN=" + ofA.cookie(),
                "X-XSRF-TOKEN", ofA.header())));
        // nor one issued before sign-in, to nobody
        PageToken anonymous = pageToken("/sales/" + voucherId, null);
        expectCsrfRejected(send(post("/shop/seckill/" + voucherId, "Cookie", b + "; XSRF-TOKEN=" + anonymous.cookie(),
                "X-XSRF-TOKEN", anonymous.header())));
        expectNothingBought(voucherId);

        // the token itself was good: for A, it buys
        HttpResponse<String> asA = send(post("/shop/seckill/" + voucherId, "Cookie", a + "; XSRF-TOKEN=" + ofA.cookie(),
                "X-XSRF-TOKEN", ofA.header()));
        assertThat(asA.statusCode()).as(asA.body()).isEqualTo(202);
    }

    @Test
    void aForgedPairSignsNobodyInAndMintsNobody() throws Exception {
        String token = api.mintShoppers(1).get(0);
        long shoppers = shoppers();
        for (String forged : forgedTokens()) {
            String form = "_csrf=" + encode(masked(forged)) + "&next=/";
            expectCsrfRejected(send(form("/sign-in", form + "&token=" + encode(token), "Cookie", "XSRF-TOKEN=" + forged)));
            expectCsrfRejected(send(form("/sign-in/test-shopper", form, "Cookie", "XSRF-TOKEN=" + forged)));
        }
        assertThat(shoppers()).as("no test shopper minted").isEqualTo(shoppers);
    }

    @Test
    void aChangeAnotherOriginSendsIsRefusedEvenWithARealToken() throws Exception {
        PageToken signIn = pageToken("/sign-in", null);
        String form = "_csrf=" + encode(signIn.header()) + "&next=/";
        long shoppers = shoppers();
        // a sibling subdomain, another port, another site: the browser says so, and a page cannot make it lie
        for (String site : List.of("same-site", "cross-site")) {
            expectCsrfRejected(send(form("/sign-in/test-shopper", form, "Cookie", "XSRF-TOKEN=" + signIn.cookie(),
                    "Sec-Fetch-Site", site)));
        }
        assertThat(shoppers()).isEqualTo(shoppers);

        HttpResponse<String> ours = send(form("/sign-in/test-shopper", form, "Cookie", "XSRF-TOKEN=" + signIn.cookie(),
                "Sec-Fetch-Site", "same-origin"));
        assertThat(ours.statusCode()).as(ours.body()).isEqualTo(302);
        assertThat(ours.headers().allValues("Set-Cookie")).anySatisfy(cookie -> assertThat(cookie).startsWith("seckill_shopper=ey"));
        assertThat(shoppers()).isEqualTo(shoppers + 1);
    }

    @Test
    void aBrowsersChangeToTheAdminSideNeedsTheCsrfTokenAScriptsDoesNot() throws Exception {
        HttpResponse<String> crossSite = send(post("/admin/shoppers?count=1", "Authorization", ADMIN,
                "Sec-Fetch-Site", "cross-site"));
        expectCsrfRejected(crossSite);

        HttpResponse<String> sameSiteWithoutToken = send(post("/admin/shoppers?count=1", "Authorization", ADMIN,
                "Sec-Fetch-Site", "same-origin"));
        expectCsrfRejected(sameSiteWithoutToken);

        PageToken page = pageToken("/admin/ui", null, "Authorization", ADMIN);
        HttpResponse<String> fromThePage = send(post("/admin/shoppers?count=1", "Authorization", ADMIN,
                "Sec-Fetch-Site", "same-origin", "Cookie", "XSRF-TOKEN=" + page.cookie(), "X-XSRF-TOKEN", page.header()));
        assertThat(fromThePage.statusCode()).isEqualTo(201);

        HttpResponse<String> script = send(post("/admin/shoppers?count=1", "Authorization", ADMIN));
        assertThat(script.statusCode()).as("curl, JMeter: no browser, no token needed").isEqualTo(201);
    }

    /** What the admin's new-voucher form and the shopper mint send, with a pair the server never issued for the admin. */
    @Test
    void aForgedPairChangesNothingOnTheAdminSide() throws Exception {
        String voucher = """
                {"title":"Forged","price":1.00,"stock":5,"beginTime":"2030-01-01T00:00:00Z","endTime":"2030-01-02T00:00:00Z"}""";
        List<String> notTheAdmins = new ArrayList<>(forgedTokens());
        // real tokens, issued by this server to others: a shopper page's, and the sign-in page's before sign-in
        notTheAdmins.add(pageToken("/sign-in", null).cookie());
        notTheAdmins.add(pageToken("/", "seckill_shopper=" + api.mintShoppers(1).get(0)).cookie());
        long vouchers = vouchers();
        long shoppers = shoppers();
        for (String forged : notTheAdmins) {
            expectCsrfRejected(send(HttpRequest.newBuilder(URI.create(base + "/admin/vouchers")).timeout(Duration.ofSeconds(10))
                    .headers("Authorization", ADMIN, "Sec-Fetch-Site", "same-origin", "Content-Type", "application/json",
                            "Cookie", "XSRF-TOKEN=" + forged, "X-XSRF-TOKEN", masked(forged))
                    .POST(HttpRequest.BodyPublishers.ofString(voucher)).build()));
            expectCsrfRejected(send(post("/admin/shoppers?count=1", "Authorization", ADMIN, "Sec-Fetch-Site", "same-origin",
                    "Cookie", "XSRF-TOKEN=" + forged, "X-XSRF-TOKEN", masked(forged))));
        }
        assertThat(vouchers()).as("no voucher created").isEqualTo(vouchers);
        assertThat(shoppers()).as("no shopper minted").isEqualTo(shoppers);
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
        PageToken form = pageToken("/sign-in", null);
        for (String next : List.of("//evil.example/x", "https://evil.example/", "/\\evil.example", "/{x}")) {
            HttpResponse<String> signedIn = send(form("/sign-in/test-shopper",
                    "_csrf=" + encode(form.header()) + "&next=" + encode(next), "Cookie", "XSRF-TOKEN=" + form.cookie()));
            expectRedirectHome(signedIn, next);
            assertThat(signedIn.headers().allValues("Set-Cookie")).anySatisfy(cookie -> assertThat(cookie)
                    .startsWith("seckill_shopper=ey").contains("HttpOnly").contains("SameSite=Strict"));
        }

        HttpResponse<String> withoutToken = send(form("/sign-in/test-shopper", "next=/"));
        expectCsrfRejected(withoutToken);
    }

    /**
     * {@code next} is whatever the link or a forged form said: only a path of this site is followed, anything else
     * goes to the sale list, and nothing answers 500 ({@code /{x}} once did: a URI template with no value).
     */
    @Test
    void noNextSendsTheShopperOffTheSiteOrFailsTheSignIn() throws Exception {
        String token = api.mintShoppers(1).get(0);
        PageToken form = pageToken("/sign-in", null);
        List<String> offSite = List.of("/{x}", "{}", "/sales/{voucherId}", "/%", "%", "/%zz", "//evil.example",
                "/\\evil.example", "\\\\evil.example", "https://evil.example", "http:evil.example", "javascript:alert(1)",
                " //evil.example", "/\t/evil.example", "/sales/1?next=//evil.example", "/x".repeat(1_000), "",
                "/sales/1\r\nSet-Cookie: x=y", "/é", "'\"><script>alert(1)</script>");
        for (String next : offSite) {
            expectRedirectHome(send(form("/sign-in", "_csrf=" + encode(form.header()) + "&token=" + encode(token)
                    + "&next=" + encode(next), "Cookie", "XSRF-TOKEN=" + form.cookie())), next);
        }
        HttpResponse<String> back = send(form("/sign-in", "_csrf=" + encode(form.header()) + "&token=" + encode(token)
                + "&next=/my/orders", "Cookie", "XSRF-TOKEN=" + form.cookie()));
        assertThat(back.statusCode()).isEqualTo(302);
        assertThat(back.headers().firstValue("Location").map(PageSecurityIT::path)).hasValue("/my/orders");
    }

    /** Odd characters, templates, escapes and very long values in every parameter the sign-in and shop pages read. */
    @Test
    void noParameterOfThePagesAnswers500() throws Exception {
        long voucherId = api.createVoucher(5);
        String shopper = "seckill_shopper=" + api.mintShoppers(1).get(0);
        PageToken signIn = pageToken("/sign-in", null);
        PageToken page = pageToken("/sales/" + voucherId, shopper);
        List<String> values = List.of("{}", "{x}", "%", "%zz", "%00", "%0d%0a", "%C3%28", "%FF", "//evil.example",
                "/\\evil.example", "javascript:alert(1)", "'\"><script>", "x".repeat(3_000), "-1", "0", "99999999999999999999",
                "1e3", "+", "&", "=", "..%2F..%2Fadmin");
        List<String> answers = new ArrayList<>();
        for (String value : values) {
            // as the raw bytes of the request line (Nginx and Tomcat see them undecoded), then as a form body
            for (String target : List.of("/sign-in?next=" + value, "/sign-in?expired=" + value + "&next=" + value,
                    "/sales/" + value, "/?x=" + value, "/my/orders?x=" + value)) {
                answers.add(raw("GET " + target, "Cookie", shopper));
            }
            answers.add(check(send(form("/sign-in", "_csrf=" + encode(signIn.header()) + "&token=" + value + "&next=" + value
                    + "&expired=" + value, "Cookie", "XSRF-TOKEN=" + signIn.cookie()))));
            answers.add(check(send(form("/sign-in", "_csrf=" + value + "&token=" + encode(value), "Cookie",
                    "XSRF-TOKEN=" + signIn.cookie()))));
            answers.add(check(send(form("/sign-out", "_csrf=" + encode(page.header()) + "&next=" + value, "Cookie",
                    shopper + "; XSRF-TOKEN=" + page.cookie()))));
            answers.add(raw("POST /shop/seckill/" + value, "Cookie", shopper + "; XSRF-TOKEN=" + page.cookie(),
                    "X-XSRF-TOKEN", page.header()));
            answers.add(raw("GET /shop/orders?voucherId=" + value, "Cookie", shopper));
            answers.add(raw("GET /shop/orders/" + value, "Cookie", shopper));
        }
        // the forged header too, odd as it gets
        for (String value : values) {
            answers.add(raw("POST /shop/seckill/" + voucherId, "Cookie", shopper + "; XSRF-TOKEN=" + value, "X-XSRF-TOKEN", value));
        }
        assertThat(answers).isNotEmpty();
        expectNothingBought(voucherId);
    }

    @Test
    void aTestShopperIsMintedOnlyForAClientOnThisMachine() throws Exception {
        long shoppers = shoppers();
        // straight to the instance, as Nginx would forward a client from the network (it writes X-Forwarded-For)
        String instance = "http://127.0.0.1:" + Instances.port(app);
        String remote = "203.0.113.9";
        HttpResponse<String> form = send(HttpRequest.newBuilder(URI.create(instance + "/sign-in"))
                .header("X-Forwarded-For", remote).GET().build());
        assertThat(form.statusCode()).isEqualTo(200);
        assertThat(form.body()).as("no button offered").doesNotContain("id=\"test-shopper\"");
        Matcher token = META_TOKEN.matcher(form.body());
        assertThat(token.find()).isTrue();
        HttpResponse<String> minted = send(HttpRequest.newBuilder(URI.create(instance + "/sign-in/test-shopper"))
                .headers("X-Forwarded-For", remote, "Content-Type", "application/x-www-form-urlencoded",
                        "Cookie", "XSRF-TOKEN=" + setCookie(form, "XSRF-TOKEN"))
                .POST(HttpRequest.BodyPublishers.ofString("_csrf=" + encode(token.group(1)) + "&next=/")).build());
        assertThat(minted.statusCode()).as(minted.body()).isEqualTo(404);
        assertThat(minted.headers().allValues("Set-Cookie")).noneMatch(cookie -> cookie.startsWith("seckill_shopper="));
        assertThat(shoppers()).isEqualTo(shoppers);

        assertThat(send(get("/sign-in")).body()).as("offered through Nginx to this machine").contains("id=\"test-shopper\"");
    }

    @Test
    void anInstanceWithTestShoppersRefusesToListenBeyondLoopback() {
        assertThatThrownBy(() -> Instances.start("async", "test-shoppers-everywhere",
                Map.of("seckill.sign-in.test-shoppers", "true")).close())
                .rootCause().hasMessageContaining("seckill.sign-in.test-shoppers")
                .hasMessageContaining("listens on every address");
    }

    @Test
    void pagesForbidForeignResourcesAndFraming() throws Exception {
        HttpResponse<String> page = send(get("/"));
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.headers().firstValue("Content-Security-Policy")).hasValueSatisfying(policy -> assertThat(policy)
                .contains("default-src 'self'").contains("script-src 'self'").contains("frame-ancestors 'none'"));
        assertThat(page.headers().firstValue("Content-Type")).hasValueSatisfying(type -> assertThat(type).startsWith("text/html"));
    }

    /** A CSRF token as a page hands it out: the cookie, and the masked value of its meta tag. */
    record PageToken(String cookie, String header) {
    }

    private static PageToken pageToken(String path, String cookie, String... headers) throws Exception {
        List<String> all = new ArrayList<>(List.of(headers));
        if (cookie != null) {
            all.addAll(List.of("Cookie", cookie));
        }
        HttpResponse<String> page = send(get(path, all.toArray(String[]::new)));
        assertThat(page.statusCode()).as(path).isEqualTo(200);
        Matcher token = META_TOKEN.matcher(page.body());
        assertThat(token.find()).as("the page carries its CSRF token").isTrue();
        return new PageToken(setCookie(page, "XSRF-TOKEN"), token.group(1));
    }

    /**
     * Tokens an attacker can make up: anything, a UUID as Spring's own repository makes them, and one shaped like
     * ours ({@code nonce.mac}) with a made-up mac.
     */
    private static List<String> forgedTokens() {
        byte[] nonce = new byte[16];
        byte[] mac = new byte[32];
        RANDOM.nextBytes(nonce);
        RANDOM.nextBytes(mac);
        Base64.Encoder url = Base64.getUrlEncoder().withoutPadding();
        return List.of("forged", UUID.randomUUID().toString(), url.encodeToString(nonce) + "." + url.encodeToString(mac));
    }

    /** The token masked as Spring's XorCsrfTokenRequestAttributeHandler masks it: random bytes, then token XOR them. */
    static String masked(String token) {
        byte[] bytes = token.getBytes(StandardCharsets.UTF_8);
        byte[] combined = new byte[bytes.length * 2];
        byte[] random = new byte[bytes.length];
        RANDOM.nextBytes(random);
        System.arraycopy(random, 0, combined, 0, bytes.length);
        for (int i = 0; i < bytes.length; i++) {
            combined[bytes.length + i] = (byte) (random[i] ^ bytes[i]);
        }
        return Base64.getUrlEncoder().encodeToString(combined);
    }

    private static void expectCsrfRejected(HttpResponse<String> response) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(403);
        assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(
                type -> assertThat(type).startsWith("application/problem+json"));
        assertThat(code(response)).isEqualTo("csrf-rejected");
        assertThat(response.headers().allValues("Set-Cookie")).noneMatch(cookie -> cookie.startsWith("seckill_shopper=ey"));
    }

    private static void expectRedirectHome(HttpResponse<String> response, String next) {
        assertThat(response.statusCode()).as(shown(next) + ": " + shown(response.body())).isEqualTo(302);
        String location = response.headers().firstValue("Location").orElseThrow();
        assertThat(location).as(shown(next)).matches("(http://(127\\.0\\.0\\.1|localhost)(:\\d+)?)?/");
    }

    private static void expectNothingBought(long voucherId) {
        JsonNode audit = api.audit(voucherId);
        assertThat(audit.path("pendingOrders").asLong() + audit.path("orders").asLong()).as("nothing bought: " + audit).isZero();
    }

    /** The request line byte for byte through Nginx: any answer but a server error, and never a stack trace. */
    private static String raw(String requestLine, String... headers) {
        RawHttp.Answer answer = RawHttp.send(nginx.port(), requestLine, headers);
        assertThat(answer.status()).as(shown(requestLine) + ": " + shown(answer.body())).isLessThan(500);
        assertThat(answer.body()).as(shown(requestLine)).doesNotContain("Exception").doesNotContain("\tat ");
        return answer.status() + " " + answer.contentType();
    }

    /** Any answer but a server error; a refusal is a problem or a page, never a stack trace. */
    private static String check(HttpResponse<String> response) {
        assertThat(response.statusCode()).as(response.request().uri().getPath() + ": " + shown(response.body())).isLessThan(500);
        assertThat(response.body()).as(response.request().uri().getPath()).doesNotContain("Exception").doesNotContain("\tat ");
        return response.statusCode() + "";
    }

    /** A value short enough for a failure message. */
    private static String shown(String value) {
        return value.length() <= 120 ? value : value.substring(0, 120) + "... (" + value.length() + " chars)";
    }

    private static long shoppers() {
        return db.queryForObject("SELECT COUNT(*) FROM shopper", Long.class);
    }

    private static long vouchers() {
        return db.queryForObject("SELECT COUNT(*) FROM voucher", Long.class);
    }

    private static String path(String location) {
        return URI.create(location).getPath();
    }

    private static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
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

    /** A form as a browser posts it; the body is sent as given (a test may put raw, unencoded bytes in it). */
    private static HttpRequest form(String path, String body, String... headers) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(10))
                .header("Content-Type", "application/x-www-form-urlencoded").POST(HttpRequest.BodyPublishers.ofString(body));
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
