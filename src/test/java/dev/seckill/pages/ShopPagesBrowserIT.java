package dev.seckill.pages;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;

import dev.seckill.support.Api;
import dev.seckill.support.Browser;
import dev.seckill.support.TestServers;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.interactions.Actions;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The shopper's pages in a real browser (Debian's Chromium, headless) through Nginx to a real instance: the countdown
 * runs out and the button opens, one click buys and the order awaits its payment without a reload, a sold-out
 * sale says so, a double click sends one request, and every page passes axe-core at phone width with nothing
 * loaded from elsewhere.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class ShopPagesBrowserIT {


    static ShopBehindNginx shop;
    static Api api;
    /** The browser comes in through the repository's Nginx rules, as a shopper would. */
    static String base;

    @BeforeAll
    static void instance() {
        assertThat(Browser.installed()).as("the Chromium image (scripts/test-services builds it)")
                .isTrue();
        shop = ShopBehindNginx.start("browser-shop");
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
    void aShopperWaitsOutTheCountdownBuysAndSeesTheOrderAwaitPayment() {
        // 20 s: time for Chromium and the sign-in on a busy machine (9 s was not, in a CI run beside other test JVMs).
        long voucherId = api.createVoucher(5, Instant.now().plusSeconds(20), Instant.now().plusSeconds(3600));
        try (Browser browser = Browser.start(1280, 900)) {
            shop.signInAsTestShopper(browser, "/sales/" + voucherId);
            WebElement buy = browser.find("#buy");
            assertThat(buy.isEnabled()).as("closed before the start").isFalse();
            assertThat(buy.getText()).isEqualTo("Not on sale yet");
            assertThat(browser.find("#countdown").getText()).matches("Starts in 00:00:[0-2]\\d.*");
            browser.screenshot("shop-voucher-countdown");

            browser.await(Duration.ofSeconds(30)).until(driver -> buy.isEnabled());
            assertThat(browser.find("#countdown").getText()).startsWith("On sale");
            buy.click();
            ShopBehindNginx.awaitStatus(browser, "AWAITING_PAYMENT", Duration.ofSeconds(30));
            assertThat(browser.find("#order-status").getText()).matches("Order \\d+ is yours once it is paid\\.");
            assertThat(browser.find("#pay-timer").getText()).matches("Pay now — 1[45]:\\d\\d left");

            browser.open(base + "/my/orders");
            assertThat(browser.find("table tbody").getText()).contains("Voucher " + voucherId).contains("Awaiting payment — 1");
            browser.screenshot("shop-my-orders-one-awaiting");
        }
    }

    @Test
    void aShopperAfterTheSellOutSeesSoldOutBeforeAndAfterClicking() throws Exception {
        long soldBefore = api.createVoucher(1);
        api.seckill(soldBefore, api.mintShoppers(1).get(0)).expectStatus(202);
        api.awaitNoPendingOrders(soldBefore, Duration.ofSeconds(10));
        long soldWhileOpen = api.createVoucher(1);
        try (Browser browser = Browser.start(1280, 900)) {
            shop.signInAsTestShopper(browser, "/sales/" + soldBefore);
            WebElement buy = browser.find("#buy");
            browser.await(Duration.ofSeconds(5)).until(driver -> "Sold out".equals(buy.getText()));
            assertThat(buy.isEnabled()).isFalse();
            assertThat(browser.find("#countdown").getText()).as("the buyer has not paid yet")
                    .isEqualTo("Sold out · units may come back (1 unpaid order)");

            browser.open(base + "/sales/" + soldWhileOpen);
            WebElement open = browser.find("#buy");
            browser.await(Duration.ofSeconds(5)).until(driver -> open.isEnabled());
            api.seckill(soldWhileOpen, api.mintShoppers(1).get(0)).expectStatus(202);
            open.click();
            ShopBehindNginx.awaitStatus(browser, "sold-out", Duration.ofSeconds(10));
            assertThat(browser.find("#order-status").getText()).isEqualTo("Sold out: every unit has been taken.");
            assertThat(open.isEnabled()).isFalse();
            browser.screenshot("shop-voucher-sold-out");
        }
    }

    @Test
    void aDoubleClickSendsOneRequestAndMakesOneOrder() throws Exception {
        long voucherId = api.createVoucher(10);
        try (Browser browser = Browser.start(1280, 900)) {
            shop.signInAsTestShopper(browser, "/sales/" + voucherId);
            WebElement buy = browser.find("#buy");
            browser.await(Duration.ofSeconds(5)).until(driver -> buy.isEnabled());
            browser.script("""
                    window.purchases = 0;
                    var send = window.fetch;
                    window.fetch = function (url, init) {
                      if (String(url).indexOf('/shop/seckill/') === 0) { window.purchases++; }
                      return send.apply(this, arguments);
                    };""");
            new Actions(browser.driver()).doubleClick(buy).click(buy).perform();
            ShopBehindNginx.awaitStatus(browser, "AWAITING_PAYMENT", Duration.ofSeconds(30));
            assertThat(((Number) browser.script("return window.purchases;")).intValue()).as("purchase requests").isOne();
        }
        JsonNode audit = api.awaitNoPendingOrders(voucherId, Duration.ofSeconds(10));
        assertThat(audit.path("orders").asLong()).isOne();
        assertThat(audit.path("consistent").asBoolean()).as("%s", audit).isTrue();
    }

    @Test
    void everyPageFitsAPhonePassesAxeAndLoadsNothingFromElsewhere() {
        long voucherId = api.createVoucher(3, Instant.now().plusSeconds(600), Instant.now().plusSeconds(3600));
        try (Browser phone = Browser.start(390, 844)) {
            checkPage(phone, "/sign-in", "phone-sign-in");
            shop.signInAsTestShopper(phone, "/");
            for (String path : List.of("/", "/sales/" + voucherId, "/my/orders")) {
                checkPage(phone, path, "phone" + path.replace('/', '-').replaceAll("-\\d+$", "-voucher"));
            }
        }
    }

    private static void checkPage(Browser browser, String path, String screenshot) {
        browser.open(base + path);
        assertThat(browser.fitsWidth()).as("%s fits 390 px", path).isTrue();
        assertThat(browser.accessibilityViolations()).as("axe-core on %s", path).isEmpty();
        assertThat(browser.resourcesNotFrom(base)).as("resources of %s from elsewhere", path).isEmpty();
        browser.screenshot(screenshot.equals("phone-") ? "phone-sales" : screenshot);
    }



}
