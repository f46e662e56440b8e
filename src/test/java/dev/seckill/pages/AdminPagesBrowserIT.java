package dev.seckill.pages;

import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import dev.seckill.support.Api;
import dev.seckill.support.Browser;
import dev.seckill.support.FullSuite;
import dev.seckill.support.Instances;
import dev.seckill.support.TestServers;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebElement;
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The admin pages in a real browser, signed in with the admin's Basic credentials: creating a voucher shows
 * the API's validation errors next to their fields first, then creates it; the voucher's page tells the audit
 * in words; and the live dashboard counts a burst as it happens and ends on the audit's numbers.
 */
// A browser test of the full suite (-Pchaos): in ./mvnw verify, ShopPagesBrowserIT drives the shop in Chromium and
// PageSecurityIT attacks these pages through Nginx.
@FullSuite
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class AdminPagesBrowserIT {


    static ConfigurableApplicationContext app;
    static Api api;
    static String base;
    /** The admin's credentials in the address, as a person would type them into the browser's prompt. */
    static String signedIn;

    @BeforeAll
    static void instance() {
        assertThat(Browser.installed()).as("the Chromium image (scripts/test-services builds it)")
                .isTrue();
        app = Instances.start("async", "browser-admin");
        api = new Api(Instances.port(app));
        base = "http://127.0.0.1:" + Instances.port(app);
        signedIn = "http://" + TestServers.ADMIN_USER + ":" + TestServers.ADMIN_PASSWORD + "@127.0.0.1:" + Instances.port(app);
    }

    @AfterAll
    static void stop() {
        if (app != null) {
            app.close();
        }
    }

    @Test
    void anAdminCreatesAVoucherThroughTheFormAfterSeeingItsValidationErrors() {
        try (Browser browser = Browser.start(1280, 1000)) {
            browser.open(signedIn + "/admin/ui/vouchers/new");
            assertThat(browser.accessibilityViolations()).as("axe-core on the form").isEmpty();

            int vouchersBefore = api.get("/vouchers").json().size();
            LocalDateTime begin = LocalDateTime.now().plusMinutes(5).withNano(0);
            type(browser, "#price", "-1");
            type(browser, "#stock", "10");
            typeDateTime(browser, "#beginTime", begin);
            typeDateTime(browser, "#endTime", begin.minusMinutes(1));
            type(browser, "#challengeDifficulty", "-5");
            assertThat(browser.find("#paymentWindow-help").getText()).as("the instances' window, the default")
                    .endsWith("Empty: the shop's default, 15 minutes.");
            type(browser, "#paymentWindow", "5");
            assertThat(browser.find("#arrivalWindow-help").getText()).as("the instances' default: no room")
                    .contains("Empty: the shop's default, no waiting room; 0: no waiting room.");
            type(browser, "#admissionsPerSecond", "0");
            browser.find("#create").click();

            browser.await(Duration.ofSeconds(10)).until(driver -> !browser.find("#title-error").getText().isEmpty());
            assertThat(browser.find("#title").getDomAttribute("aria-invalid")).isEqualTo("true");
            assertThat(browser.find("#price-error").getText()).startsWith("price ");
            assertThat(browser.find("#endTime-error").getText()).contains("endTime must be after beginTime");
            assertThat(browser.find("#challengeDifficulty-error").getText()).startsWith("challengeDifficulty ");
            assertThat(browser.find("#paymentWindow-error").getText())
                    .isEqualTo("paymentWindow must be longer than or equal to 10 seconds");
            assertThat(browser.find("#admissionsPerSecond-error").getText()).startsWith("admissionsPerSecond ");
            assertThat(browser.find("#form-error").getText()).contains("validation-failed");
            assertThat(api.get("/vouchers").json().size()).as("nothing created").isEqualTo(vouchersBefore);
            browser.screenshot("admin-new-voucher-errors");

            type(browser, "#title", "Browser-made voucher");
            type(browser, "#price", "19.90");
            typeDateTime(browser, "#endTime", begin.plusHours(1));
            type(browser, "#challengeDifficulty", "20000");
            type(browser, "#paymentWindow", "45");
            type(browser, "#arrivalWindow", "30");
            type(browser, "#admissionsPerSecond", "1500");
            browser.find("#create").click();
            browser.await(Duration.ofSeconds(10)).until(driver -> driver.getCurrentUrl().matches(".*/admin/ui/vouchers/\\d+"));
            assertThat(browser.find("h1").getText()).isEqualTo("Browser-made voucher");
            browser.await(Duration.ofSeconds(10)).until(driver -> browser.find("#audit-verdict").getText().equals("The sale adds up."));
            long voucherId = Long.parseLong(browser.driver().getCurrentUrl().replaceAll(".*/", ""));
            assertThat(api.get("/vouchers/" + voucherId).json().path("challengeDifficulty").asInt()).isEqualTo(20_000);
            assertThat(api.get("/vouchers/" + voucherId).json().path("paymentWindow").asString()).isEqualTo("PT45S");
            assertThat(browser.find("#payment-window").getText()).isEqualTo("45 seconds to pay");
            assertThat(api.get("/vouchers/" + voucherId).json().path("arrivalWindow").asString()).isEqualTo("PT30S");
            assertThat(api.get("/vouchers/" + voucherId).json().path("admissionsPerSecond").asInt()).isEqualTo(1_500);
            assertThat(browser.find("#waiting-room").getText())
                    .isEqualTo("waiting room: a lottery for the first 30 seconds, 1,500 let in a second");

            // The room's controls: a rate, a pause and a close, each said back as the instances now hold it.
            awaitText(browser, "#room-state", "Letting places in, 1,500 a second."::equals);
            type(browser, "#room-rate-value", "0");
            browser.find("#room-rate button[type=submit]").click();
            awaitText(browser, "#room-rate-error", text -> text.startsWith("admissionsPerSecond"));
            type(browser, "#room-rate-value", "20");
            browser.find("#room-rate button[type=submit]").click();
            awaitText(browser, "#room-state", "Letting places in, 20 a second (created with 1,500)."::equals);
            browser.find("#room-pause").click();
            awaitText(browser, "#room-state", text -> text.startsWith("Paused: nobody more is let in"));
            assertThat(browser.find("#room-pause").isEnabled()).isFalse();
            assertThat(api.get("/vouchers/" + voucherId + "/room/now").json().path("paused").asBoolean()).isTrue();
            browser.find("#room-resume").click();
            awaitText(browser, "#room-state", text -> text.startsWith("Letting places in"));
            browser.script("window.confirm = function () { return true; };");
            browser.find("#room-close").click();
            awaitText(browser, "#room-state", "Closed: nobody more joins or is let in."::equals);
            assertThat(api.asAdmin("GET", "/admin/vouchers/" + voucherId + "/room", null).json().path("closed")
                    .asBoolean()).isTrue();

            type(browser, "#reset-units", "-3");
            browser.find("#reset-stock button[type=submit]").click();
            awaitText(browser, "#reset-units-error", text -> !text.isEmpty());
            assertThat(api.audit(voucherId).path("initialStock").asInt()).as("a refused reset changes nothing").isEqualTo(10);
            type(browser, "#reset-units", "4");
            browser.find("#reset-stock button[type=submit]").click();
            browser.await(Duration.ofSeconds(10)).until(driver -> browser.find("#reset-result").getText()
                    .equals("Stock reset: 4 of 4 units for sale."));
            assertThat(api.audit(voucherId).path("redisStock").asLong()).isEqualTo(4);

            browser.find("#reconcile").click();
            browser.await(Duration.ofSeconds(10)).until(driver -> browser.find("#reconcile-result").getText()
                    .startsWith("Rebuilt: 4 units left in Redis, 0 buyers"));
            browser.await(Duration.ofSeconds(10)).until(driver -> browser.find("#audit-verdict").getText().equals("The sale adds up."));
            assertThat(browser.find("#audit-lines").getText()).contains("0 orders in MySQL from 0 shoppers; 4 units were put on sale");
        }
    }

    @Test
    void theDashboardCountsABurstAsItHappensAndEndsOnTheAuditsNumbers() throws Exception {
        long voucherId = api.createVoucher(150);
        List<String> shoppers = api.mintShoppers(200);
        try (Browser browser = Browser.start(1280, 1400)) {
            browser.open(signedIn + "/admin/ui/vouchers/" + voucherId);
            browser.await(Duration.ofSeconds(10)).until(driver -> "0".equals(browser.find("#n-accepted").getText()));

            List<Long> seen = new ArrayList<>();
            ExecutorService pool = Executors.newFixedThreadPool(4);
            try {
                List<Future<?>> sent = new ArrayList<>();
                for (int i = 0; i < shoppers.size(); i++) {
                    String shopper = shoppers.get(i);
                    sent.add(pool.submit(() -> api.seckill(voucherId, shopper)));
                    if (i % 20 == 19) {
                        Thread.sleep(300); // pacing, on purpose: the page gets time to show the count rising
                        seen.add(Long.parseLong(browser.find("#n-accepted").getText()));
                    }
                }
                for (Future<?> request : sent) {
                    request.get();
                }
            } finally {
                pool.shutdownNow();
            }
            JsonNode audit = api.awaitNoPendingOrders(voucherId, Duration.ofSeconds(20));
            String orders = Long.toString(audit.path("orders").asLong());
            assertThat(orders).isEqualTo("150");
            browser.await(Duration.ofSeconds(10)).until(driver -> orders.equals(browser.find("#n-accepted").getText())
                    && "0".equals(browser.find("#n-pending").getText()) && "50".equals(browser.find("#n-refused").getText()));
            assertThat(browser.find("#n-refused").getText()).as("the 50 who came too late").isEqualTo("50");
            assertThat(browser.find("#n-stock-redis").getText()).isEqualTo(Long.toString(audit.path("redisStock").asLong()));
            assertThat(browser.find("#n-stock-mysql").getText()).isEqualTo(Long.toString(audit.path("dbStock").asLong()));
            assertThat(seen).as("the count seen rising during the burst").isSorted()
                    .anySatisfy(count -> assertThat(count).isBetween(1L, 149L));
            assertThat(browser.find("#instances tbody").getText()).contains("browser-admin").contains("sold-out 50");
            browser.screenshot("admin-dashboard");
            assertThat(browser.accessibilityViolations()).as("axe-core on the dashboard").isEmpty();
        }
    }

    /** Waits for an element's text to pass {@code check}; a timeout says what the page showed instead. */
    private static void awaitText(Browser browser, String css, java.util.function.Predicate<String> check) {
        try {
            browser.await(Duration.ofSeconds(10)).until(driver -> check.test(browser.find(css).getText()));
        } catch (org.openqa.selenium.TimeoutException e) {
            throw new AssertionError(css + " says [" + browser.find(css).getText() + "]; the page's messages: "
                    + browser.findAll("[role=status], [role=alert]").stream().map(org.openqa.selenium.WebElement::getText)
                            .filter(text -> !text.isBlank()).toList(), e);
        }
    }

    private static void type(Browser browser, String css, String text) {
        WebElement input = browser.find(css);
        input.clear();
        input.sendKeys(text);
    }

    /** A datetime-local field takes keystrokes in the browser's locale order (en-US: month, day, year, time). */
    private static void typeDateTime(Browser browser, String css, LocalDateTime value) {
        browser.script("arguments[0].value = arguments[1];", browser.find(css),
                value.format(DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss")));
        browser.find(css).sendKeys(Keys.TAB);
    }
}
