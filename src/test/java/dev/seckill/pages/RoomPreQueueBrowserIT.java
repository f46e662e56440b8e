package dev.seckill.pages;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import dev.seckill.support.Api;
import dev.seckill.support.Browser;
import dev.seckill.support.FullSuite;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.openqa.selenium.WebElement;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A buy page open before a room's pre-queue: nothing to click until the room takes joins; then the page joins by itself
 * (no click), before the sale opens, and is in the lottery; after the draw it is let in and buys at a click. In
 * Chromium through Nginx, tickets off.
 */
@FullSuite
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class RoomPreQueueBrowserIT {

    static final Duration PRE_QUEUE = Duration.ofSeconds(16);

    static ShopBehindNginx shop;
    static Api api;

    @BeforeAll
    static void instance() {
        assertThat(Browser.installed()).as("the Chromium image (scripts/test-services builds it)").isTrue();
        shop = ShopBehindNginx.start("browser-pre-queue", Map.of("seckill.room.pre-queue", PRE_QUEUE.toSeconds() + "s",
                "seckill.room.batch-interval", "1s", "seckill.room.poll-interval", "1s"));
        api = shop.api();
    }

    @AfterAll
    static void stop() {
        if (shop != null) {
            shop.close();
        }
    }

    @Test
    void thePageJoinsByItselfInThePreQueueAndBuysOnceLetIn() throws Exception {
        Instant opens = Instant.now().plusSeconds(34);
        long voucher = api.asAdmin("POST", "/admin/vouchers", """
                {"title":"Pre-queue voucher","price":9.90,"stock":1,"beginTime":"%s","endTime":"%s",
                 "arrivalWindow":"PT3S","admissionsPerSecond":1}""".formatted(opens, opens.plusSeconds(3_600)))
                .expectStatus(201).json().path("id").asLong();
        try (Browser page = Browser.start(1000, 900)) {
            shop.signInAsTestShopper(page, "/sales/" + voucher);
            WebElement button = page.find("#buy");
            assertThat(Instant.now()).as("the page open before the pre-queue").isBefore(opens.minus(PRE_QUEUE));
            assertThat(button.isEnabled()).isFalse();
            assertThat(button.getText()).isEqualTo("Not on sale yet");
            assertThat(page.find("#room-place").getText()).isEmpty();

            // The pre-queue opens: the page joins by itself within its first half (8 s here), nobody clicking.
            page.await(Duration.ofSeconds(30)).until(driver -> page.find("#room-place").getText().startsWith("In the draw"));
            assertThat(Instant.now()).as("joined before the sale opened").isBefore(opens);
            assertThat(button.getText()).isEqualTo("In the draw");
            long shopper = Long.parseLong(page.find("#room").getDomAttribute("data-shopper"));

            // The draw: the one entrant is let in, and buys at a click.
            page.await(Duration.ofSeconds(60)).until(driver -> "Buy now".equals(button.getText()) && button.isEnabled());
            assertThat(api.get("/vouchers/" + voucher + "/room/draw").expectStatus(200).json().path("entrants")
                    .get(0).asString()).isEqualTo(Long.toString(shopper));
            button.click();
            ShopBehindNginx.awaitStatus(page, "AWAITING_PAYMENT", Duration.ofSeconds(20));
            assertThat(api.audit(voucher).path("orders").asLong()).isEqualTo(1);
        }
    }
}
