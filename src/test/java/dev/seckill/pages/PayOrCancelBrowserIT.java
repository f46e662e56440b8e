package dev.seckill.pages;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import dev.seckill.support.Api;
import dev.seckill.support.Browser;
import dev.seckill.support.FullSuite;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.openqa.selenium.By;
import org.openqa.selenium.TimeoutException;
import org.openqa.selenium.WebElement;
import org.springframework.jdbc.core.JdbcTemplate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * After the click, in Chromium through Nginx: one shopper's orders end each way an order can. One is cancelled on the
 * buy page, one is paid on the sandbox provider's checkout (and turns Paid once its webhook arrives), one lets its
 * payment window run out, and one is paid for or cancelled from My orders. The sale pages say when a sale is sold
 * out and whether unpaid orders may still give units back. Writes the screenshots the README shows.
 */
// A browser test of the full suite (-Pchaos): in ./mvnw verify, ShopPagesBrowserIT drives the shop in Chromium and
// PageSecurityIT attacks these pages through Nginx.
@FullSuite
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class PayOrCancelBrowserIT {

    static ShopBehindNginx shop;
    static Api api;
    static JdbcTemplate jdbc;
    static String base;

    @BeforeAll
    static void instance() {
        assertThat(Browser.installed()).as("the Chromium image (scripts/test-services builds it)").isTrue();
        shop = ShopBehindNginx.start("browser-pay");
        api = shop.api();
        jdbc = shop.app().getBean(JdbcTemplate.class);
        base = shop.base();
    }

    @AfterAll
    static void stop() {
        if (shop != null) {
            shop.close();
        }
    }

    @Test
    void aShopperCancelsOneOrderPaysOneAndLetsOneExpire() {
        long toCancel = api.createVoucher(5);
        long toPay = api.createVoucher(1);
        long toExpire = api.createVoucher(1);
        try (Browser browser = Browser.start(1000, 720)) {
            shop.signInAsTestShopper(browser, "/sales/" + toCancel);
            String cancelled = buy(browser);
            assertThat(browser.find("#pay-timer").getText()).matches("Pay now — 1[45]:\\d\\d left");
            browser.screenshot("shop-voucher-pay-now");
            browser.find("#cancel").click();
            ShopBehindNginx.awaitStatus(browser, "CANCELLED", Duration.ofSeconds(20));
            assertThat(browser.find("#order-status").getText()).isEqualTo("Cancelled — the unit went back on sale");
            assertThat(browser.find("#order-box").isDisplayed()).isFalse();
            assertThat(statusInMySql(cancelled)).isEqualTo("CANCELLED");

            browser.open(base + "/sales/" + toPay);
            String paid = buy(browser);
            browser.find("#pay").click();
            browser.await(Duration.ofSeconds(10)).until(driver -> driver.getCurrentUrl().startsWith(base + "/sandbox/checkout/pay_"));
            assertThat(browser.find("main").getText()).contains(paid);
            browser.screenshot("sandbox-checkout");
            browser.find("button[value='pay']").click();
            browser.await(Duration.ofSeconds(10)).until(driver -> !browser.findAll("a[href='/my/orders']").isEmpty());
            awaitRow(browser, paid, "Paid");

            browser.open(base + "/sales/" + toPay);
            ShopBehindNginx.awaitStatus(browser, "PAID", Duration.ofSeconds(20));
            assertThat(browser.find("#order-status").getText()).as("a returning shopper sees their order").isEqualTo("Paid");
            assertThat(browser.find("#countdown").getText()).as("paid: no unit can come back").isEqualTo("Sold out");

            browser.open(base + "/sales/" + toExpire);
            String expired = buy(browser);
            browser.open(base + "/");
            assertThat(card(browser, toExpire)).isEqualTo("Sold out · units may come back (1 unpaid order)");
            assertThat(card(browser, toPay)).isEqualTo("Sold out");
            assertThat(card(browser, toCancel)).startsWith("On sale");

            jdbc.update("UPDATE voucher_order SET pay_by = TIMESTAMPADD(SECOND, -1, UTC_TIMESTAMP(3)) WHERE id = ?",
                    Long.parseLong(expired));
            // Arriving now, the shopper finds a window with no time left: the page reads the order until a scan ends it.
            browser.open(base + "/sales/" + toExpire);
            ShopBehindNginx.awaitStatus(browser, "EXPIRED", Duration.ofSeconds(20));
            assertThat(browser.find("#order-status").getText())
                    .isEqualTo("Expired — the payment window ran out; the unit went back on sale");
            assertThat(statusInMySql(expired)).isEqualTo("EXPIRED");
            browser.open(base + "/");
            assertThat(card(browser, toExpire)).as("the unit is back on sale").startsWith("On sale");
        }
    }

    @Test
    void myOrdersSaysEachStateAndPaysOrCancelsThoseAwaitingPayment() {
        long[] vouchers = {api.createVoucher(5), api.createVoucher(5), api.createVoucher(5), api.createVoucher(5)};
        try (Browser browser = Browser.start(1000, 680)) {
            shop.signInAsTestShopper(browser, "/sales/" + vouchers[0]);
            String paid = buy(browser);
            browser.find("#pay").click();
            browser.await(Duration.ofSeconds(10)).until(driver -> driver.getCurrentUrl().startsWith(base + "/sandbox/checkout/"));
            browser.find("button[value='pay']").click();
            browser.open(base + "/sales/" + vouchers[1]);
            String cancelled = buy(browser);
            browser.find("#cancel").click();
            ShopBehindNginx.awaitStatus(browser, "CANCELLED", Duration.ofSeconds(20));
            browser.open(base + "/sales/" + vouchers[2]);
            String expired = buy(browser);
            jdbc.update("UPDATE voucher_order SET pay_by = TIMESTAMPADD(SECOND, -1, UTC_TIMESTAMP(3)) WHERE id = ?",
                    Long.parseLong(expired));
            browser.open(base + "/sales/" + vouchers[3]);
            String awaiting = buy(browser);

            awaitRow(browser, paid, "Paid");
            awaitRow(browser, expired, "Expired — the payment window ran out; the unit went back on sale");
            assertThat(row(browser, cancelled).getText()).contains("Cancelled — the unit went back on sale");
            assertThat(row(browser, awaiting).findElement(By.cssSelector(".order-state")).getText())
                    .matches("Awaiting payment — 1[45]:\\d\\d left");
            assertThat(row(browser, paid).findElements(By.cssSelector("button"))).isEmpty();
            assertThat(browser.accessibilityViolations()).as("axe-core on My orders").isEmpty();
            browser.screenshot("shop-my-orders");

            row(browser, awaiting).findElement(By.cssSelector(".pay")).click();
            browser.await(Duration.ofSeconds(10)).until(driver -> driver.getCurrentUrl().startsWith(base + "/sandbox/checkout/pay_"));
            browser.open(base + "/my/orders");
            row(browser, awaiting).findElement(By.cssSelector(".cancel")).click();
            browser.await(Duration.ofSeconds(10)).until(driver -> state(browser, awaiting).equals("Cancelled — the unit went back on sale"));
            assertThat(statusInMySql(awaiting)).isEqualTo("CANCELLED");
        }
    }

    /** Clicks Buy now once it opens and waits for the order to await its payment; returns the order's id. */
    private static String buy(Browser browser) {
        WebElement buy = browser.find("#buy");
        browser.await(Duration.ofSeconds(10)).until(driver -> buy.isEnabled());
        buy.click();
        ShopBehindNginx.awaitStatus(browser, "AWAITING_PAYMENT", Duration.ofSeconds(20));
        browser.await(Duration.ofSeconds(5)).until(driver -> browser.find("#pay-timer").getText().startsWith("Pay now"));
        return browser.find("#order-status").getDomAttribute("data-order");
    }

    /** My orders is read once per visit: reloads it until the order's row says {@code words}. */
    private static void awaitRow(Browser browser, String orderId, String words) {
        try {
            browser.await(Duration.ofSeconds(20)).until(driver -> {
                browser.open(base + "/my/orders");
                return state(browser, orderId).equals(words);
            });
        } catch (TimeoutException e) {
            throw new AssertionError("order " + orderId + " never read [" + words + "]; it says [" + state(browser, orderId)
                    + "], MySQL has " + statusInMySql(orderId), e);
        }
    }

    private static WebElement row(Browser browser, String orderId) {
        return browser.find("#orders tr[data-order='" + orderId + "']");
    }

    private static String state(Browser browser, String orderId) {
        return row(browser, orderId).findElement(By.cssSelector(".order-state")).getText();
    }

    private static String card(Browser browser, long voucherId) {
        return browser.find(".card[data-voucher='" + voucherId + "'] .countdown").getText();
    }

    private static String statusInMySql(String orderId) {
        return jdbc.queryForObject("SELECT status FROM voucher_order WHERE id = ?", String.class, Long.parseLong(orderId));
    }


}
