package dev.seckill.pages;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import dev.seckill.support.Api;
import dev.seckill.support.Browser;
import dev.seckill.support.FullSuite;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.openqa.selenium.TimeoutException;
import org.openqa.selenium.WebElement;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The buy page with purchase tickets on, in Chromium through Nginx: the page solves the voucher's challenge with
 * ALTCHA's widget while the countdown runs, and the click spends the solution on a ticket and the ticket on the
 * purchase. Prints the solve times the widget reports (docs/security.md quotes them).
 */
// A browser test of the full suite (-Pchaos): in ./mvnw verify, ShopPagesBrowserIT drives the shop in Chromium and
// PageSecurityIT attacks these pages through Nginx.
@FullSuite
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class TicketBuyBrowserIT {

    static final JsonMapper JSON = JsonMapper.builder().build();
    static ShopBehindNginx shop;
    static Api api;
    static String base;

    @BeforeAll
    static void instance() {
        assertThat(Browser.installed()).as("the Chromium image (scripts/test-services builds it)").isTrue();
        shop = ShopBehindNginx.start("browser-ticket", Map.of("seckill.tickets.required", "true"));
        api = shop.api();
        base = shop.base();
    }

    @AfterAll
    static void stop() {
        if (shop != null) {
            shop.close();
        }
    }

    @Test
    void thePageSolvesTheChallengeDuringTheCountdownAndTheClickBuysWithATicket() {
        Instant opens = Instant.now().plusSeconds(12);
        long voucher = api.createVoucher(3, opens, opens.plusSeconds(3_600));
        try (Browser browser = Browser.start(1000, 720)) {
            shop.signInAsTestShopper(browser, "/sales/" + voucher);
            WebElement buy = browser.find("#buy");
            assertThat(buy.isEnabled()).as("before the sale opens").isFalse();

            String payload = awaitSolution(browser);
            assertThat(Instant.now()).as("solved during the countdown").isBefore(opens);
            assertThat(browser.resourcesNotFrom(base)).as("the widget is served by the shop itself").isEmpty();

            browser.await(Duration.ofSeconds(30)).until(driver -> buy.isEnabled());
            buy.click();
            ShopBehindNginx.awaitStatus(browser, "AWAITING_PAYMENT", Duration.ofSeconds(20));
            assertThat(browser.find("#order-status").getDomAttribute("data-order")).isNotBlank();
            assertThat(api.audit(voucher).path("orders").asLong()).isEqualTo(1);
            // The spent solution is not asked twice: the widget has solved the next one, or is solving it.
            assertThat(awaitSolution(browser)).isNotEqualTo(payload);
            browser.screenshot("shop-voucher-ticket");
        }
    }

    /**
     * What a shopper's browser pays for the default challenge: each page load solves one. The median of the widget's
     * own {@code took} (milliseconds) over several loads, printed for docs/security.md.
     */
    @Test
    void theDefaultChallengeCostsTheBrowserAFractionOfASecond() {
        long voucher = api.createVoucher(1, Instant.now().plusSeconds(3_600), Instant.now().plusSeconds(7_200));
        List<Long> took = new ArrayList<>();
        try (Browser browser = Browser.start(1000, 720)) {
            shop.signInAsTestShopper(browser, "/sales/" + voucher);
            for (int load = 0; load < 9; load++) {
                browser.open(base + "/sales/" + voucher);
                took.add(JSON.readTree(Base64.getDecoder().decode(awaitSolution(browser))).path("took").asLong(-1));
            }
        }
        List<Long> sorted = took.stream().sorted().toList();
        System.out.println("[challenge] Chromium solve times (ms, difficulty 50000): " + took + "; median "
                + sorted.get(sorted.size() / 2));
        assertThat(sorted).allMatch(ms -> ms >= 0).as("the widget reports its time");
        assertThat(sorted.get(sorted.size() / 2)).as("median solve time, ms").isLessThan(10_000);
    }

    /** The widget's current solution (base64 of its payload), once it has one. */
    private static String awaitSolution(Browser browser) {
        try {
            browser.await(Duration.ofSeconds(60)).until(driver -> "verified".equals(
                    browser.script("var w = document.getElementById('challenge'); return w && w.getState ? w.getState() : null;")));
        } catch (TimeoutException e) {
            throw new AssertionError("the challenge was never solved; the widget says "
                    + browser.script("var w = document.getElementById('challenge'); return w ? w.outerHTML : 'no widget';"), e);
        }
        Object value = browser.script("var i = document.querySelector('#challenge input[name=altcha]'); return i ? i.value : null;");
        assertThat(value).as("the widget's payload field").isNotNull();
        String payload = value.toString();
        assertThat(new String(Base64.getDecoder().decode(payload), StandardCharsets.UTF_8)).contains("\"signature\"");
        return payload;
    }


}
