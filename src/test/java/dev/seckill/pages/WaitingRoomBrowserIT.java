package dev.seckill.pages;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import dev.seckill.sale.room.RoomLottery;
import dev.seckill.support.Api;
import dev.seckill.support.Browser;
import dev.seckill.support.FullSuite;
import dev.seckill.support.Handshake;
import dev.seckill.support.Tokens;
import dev.seckill.voucher.SaleWindowCache;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.openqa.selenium.TimeoutException;
import org.openqa.selenium.WebElement;
import org.springframework.jdbc.core.JdbcTemplate;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The buy page of a voucher with a waiting room, in Chromium through Nginx, purchase tickets on: the page solves the
 * challenge during the countdown and spends it on joining at the opening; during the arrival window it says when places
 * are drawn and how many are in the room; after the draw the shopper's place and its wait move without a reload; once
 * let in, Buy now buys with the admission; a second shopper's page then says the units are taken. The lottery's
 * commitment shows from the start and the draw's link after it.
 */
// A browser test of the full suite (-Pchaos), as TicketBuyBrowserIT; WaitingRoomAsyncIT and WaitingRoomSyncIT hold the
// room itself to its promises in ./mvnw verify.
@FullSuite
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class WaitingRoomBrowserIT {

    static final Duration ARRIVAL_WINDOW = Duration.ofSeconds(8);
    /** Places the lottery puts before the buyer's: enough batches to watch the wait go down. */
    static final int AHEAD = 5;
    static final String SOLD_OUT = "All units are taken; if an unpaid order expires, places move on";

    static ShopBehindNginx shop;
    static Api api;
    static String base;

    @BeforeAll
    static void instance() {
        assertThat(Browser.installed()).as("the Chromium image (scripts/test-services builds it)").isTrue();
        shop = ShopBehindNginx.start("browser-room", Map.of("seckill.tickets.required", "true",
                "seckill.tickets.challenge-difficulty", "5000",
                // One place a second, the page asking every second: each of its polls sees the wait shorter. The one
                // unit is held for each shopper let in before the buyer, none of whom comes for it: 5 s each.
                "seckill.room.batch-interval", "1s", "seckill.room.poll-interval", "1s",
                "seckill.room.admission-lifetime", "5s",
                // no pre-queue: the pages join at a click at the opening, the first of them lost on the way
                "seckill.room.pre-queue", "0s",
                "seckill.rate-limit.room-polls.permits", "1000"));
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
    void theShopperJoinsInTheWindowWatchesTheirPlaceMoveAndBuysWhenLetIn() throws Exception {
        try (Browser pageA = Browser.start(1000, 1000); Browser pageB = Browser.start(1000, 720)) {
            shop.signInAsTestShopper(pageA, "/");
            shop.signInAsTestShopper(pageB, "/");
            Instant opens = Instant.now().plusSeconds(15);
            long voucher = api.asAdmin("POST", "/admin/vouchers", """
                    {"title":"Room voucher","price":9.90,"stock":1,"beginTime":"%s","endTime":"%s",
                     "arrivalWindow":"%s","admissionsPerSecond":1}""".formatted(opens, opens.plusSeconds(3_600),
                    ARRIVAL_WINDOW)).expectStatus(201).json().path("id").asLong();
            pageA.open(base + "/sales/" + voucher);
            pageB.open(base + "/sales/" + voucher);
            // The lottery's numbers exist only once the window closes, from the seed and who entered. Knowing the seed, as
            // only the shop does, the test picks which shoppers come in through the API so that the lottery puts them
            // before both pages: the buyer is the page it puts first of the two; the other, behind it, waits for the one
            // unit and is told it is sold out. (What a shop's insider could do with the seed: docs/security.md.)
            String seed = shop.app().getBean(SaleWindowCache.class).require(voucher).room().seed();
            List<String> ahead = aheadOfBoth(seed, shopperId(pageA), shopperId(pageB));
            Browser buyer = placedFirst(seed, ahead, pageA, pageB);
            Browser other = buyer == pageA ? pageB : pageA;
            WebElement join = buyer.find("#buy");
            assertThat(join.isEnabled()).as("before the opening").isFalse();
            assertThat(join.getText()).isEqualTo("Not on sale yet");
            String commitment = api.get("/vouchers/" + voucher + "/room").expectStatus(200).json().path("commitment")
                    .asString();
            awaitText(buyer, "#room-hash", text -> text.equals(commitment.substring(0, 16) + "…"));
            assertThat(buyer.find("#room-check").isDisplayed()).as("no draw to link to yet").isFalse();

            long buyerId = shopperId(buyer);
            List<String> solutions = ahead.stream()
                    .map(token -> Handshake.solve(Handshake.challenge(api, voucher, token))).toList();
            awaitSolved(buyer);
            awaitSolved(other);
            assertThat(Instant.now()).as("all set before the opening").isBefore(opens);

            // The opening: the shoppers the lottery puts first join through the API, then both pages at a click, with
            // the solution their browser found during the countdown. During the draw a page watches the room's public
            // state until it is drawn: the buyer's own join says how many are in the room.
            Thread.sleep(Math.max(0, Duration.between(Instant.now(), opens).toMillis()) + 300);
            for (int i = 0; i < AHEAD; i++) {
                JsonNode joined = api.post("/seckill/" + voucher + "/room", "{\"solution\":\"" + solutions.get(i) + "\"}",
                        "Authorization", "Bearer " + ahead.get(i), "Content-Type", "application/json")
                        .expectStatus(200).json();
                assertThat(joined.path("state").asString()).isEqualTo("in-the-draw");
            }
            other.await(Duration.ofSeconds(10)).until(driver -> other.find("#buy").isEnabled());
            other.find("#buy").click();
            awaitText(other, "#room-place", text -> text.startsWith("In the draw"));
            buyer.await(Duration.ofSeconds(10)).until(driver -> join.isEnabled());
            assertThat(join.getText()).isEqualTo("Join the waiting room");
            // The buyer's first join is lost on the way, answered 502 as Nginx answers for an instance that died with
            // it: the page sends it again by itself (joining twice holds one place).
            buyer.script("""
                    var realFetch = window.fetch;
                    window.joinsLost = 0;
                    window.asked = { place: 0, now: 0 };
                    window.fetch = function (url, init) {
                      if (String(url).endsWith('/room/place')) {
                        window.asked.place++;
                      } else if (String(url).endsWith('/room/now')) {
                        window.asked.now++;
                      }
                      if (window.joinsLost === 0 && init && init.method === 'POST' && String(url).endsWith('/room')) {
                        window.joinsLost++;
                        return Promise.resolve(new Response('{"status":502,"code":"instance-unavailable",'
                            + '"title":"Instance unavailable","detail":"No application instance could take the request"}',
                            { status: 502, headers: { 'Content-Type': 'application/problem+json', 'Retry-After': '1' } }));
                      }
                      return realFetch.apply(this, arguments);
                    };""");
            join.click();
            awaitText(buyer, "#room-place", text -> text.matches(
                    "In the draw: places are drawn at \\d\\d:\\d\\d:\\d\\d \\(" + (AHEAD + 2) + " in the room\\)"));
            assertThat(Instant.now()).as("joined within the arrival window").isBefore(opens.plus(ARRIVAL_WINDOW));
            assertThat(((Number) buyer.script("return window.joinsLost;")).intValue()).as("a join lost first").isEqualTo(1);
            buyer.script("window.roomPageLoaded = 'once';");
            assertThat(buyer.find("#buy").getText()).isEqualTo("In the draw");
            assertThat(buyer.find("#buy").isEnabled()).isFalse();
            assertThat(buyer.find("#challenge").isDisplayed()).as("joined: no further proof of work").isFalse();

            // After the draw: the buyer's place and what it may expect, then the turn.
            Set<String> seen = new LinkedHashSet<>();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            boolean pictured = false;
            while (!("Buy now".equals(join.getText()) && join.isEnabled())) {
                assertThat(System.nanoTime()).as("let in within a minute; the page said %s", seen).isLessThan(deadline);
                String place = buyer.find("#room-place").getText();
                seen.add(place);
                if (!pictured && place.startsWith("You are ")) {
                    buyer.screenshot("waiting-room");
                    pictured = true;
                }
                Thread.sleep(50);
            }
            List<String> order = new ArrayList<>();
            api.get("/vouchers/" + voucher + "/room/draw").expectStatus(200).json().path("entrants")
                    .forEach(id -> order.add(id.asString()));
            int place = order.indexOf(Long.toString(buyerId)) + 1;
            assertThat(place).as("behind the shoppers the lottery put first").isGreaterThan(AHEAD);
            // One unit for the places ahead: no time promised while they may take it, a time once it is the buyer's next.
            List<String> waiting = seen.stream().filter(text -> text.startsWith("You are ")).toList();
            assertThat(waiting).as("the place, and what it may expect: %s", seen).isNotEmpty()
                    .allMatch(text -> text.matches("You are " + place
                            + "(st|nd|rd|th) · (about \\d+ s|units will likely run out before your turn)"))
                    .anyMatch(text -> text.endsWith("units will likely run out before your turn"));
            assertThat(buyer.find("#room-timer").getText()).matches("Your turn ends in 0[01]:\\d\\d");

            join.click();
            ShopBehindNginx.awaitStatus(buyer, "AWAITING_PAYMENT", Duration.ofSeconds(20));
            assertThat(buyer.script("return window.roomPageLoaded;")).as("all without a reload").isEqualTo("once");
            // The page waited on the room's public state; it asked the shop for its own place once after the draw and
            // once when the public state said its turn had come (a third time at most, had the state been a second old).
            Map<?, ?> asked = (Map<?, ?>) buyer.script("return window.asked;");
            assertThat(((Number) asked.get("place")).intValue()).as("%s", asked).isBetween(1, 3);
            assertThat(((Number) asked.get("now")).intValue()).as("%s", asked)
                    .isGreaterThan(((Number) asked.get("place")).intValue());
            assertThat(api.audit(voucher).path("orders").asLong()).isEqualTo(1);
            assertThat(buyer.find("#room-check").isDisplayed()).as("the draw is out").isTrue();
            assertThat(buyer.find("#room-draw-link").getDomAttribute("href")).isEqualTo("/vouchers/" + voucher + "/room/draw");
            assertThat(buyer.find("#room-command").getText())
                    .isEqualTo("scripts/room-draw " + base + " " + voucher + " --commitment " + commitment + " --shopper " + buyerId);
            assertThat(buyer.resourcesNotFrom(base)).as("everything from the shop itself").isEmpty();

            // The other shopper's page: the unit is taken, said plainly; so says the room to those still waiting.
            awaitText(other, "#room-place", SOLD_OUT::equals);
            assertThat(other.find("#buy").getText()).isEqualTo("Sold out");
            assertThat(other.find("#buy").isEnabled()).isFalse();
            assertThat(api.get("/seckill/" + voucher + "/room/place", "Authorization", "Bearer " + ahead.get(0))
                    .expectStatus(200).json().path("state").asString()).isEqualTo("sold-out");
        }
    }

    @Test
    void aTurnLetPassQueuesAgainAtAClickAndAnOrderThatFailsGivesTheTurnBack() throws Exception {
        try (Browser page = Browser.start(1000, 1000)) {
            shop.signInAsTestShopper(page, "/");
            Instant opens = Instant.now().plusSeconds(8);
            long voucher = api.asAdmin("POST", "/admin/vouchers", """
                    {"title":"Room voucher","price":9.90,"stock":1,"beginTime":"%s","endTime":"%s",
                     "arrivalWindow":"PT2S","admissionsPerSecond":1}""".formatted(opens, opens.plusSeconds(3_600)))
                    .expectStatus(201).json().path("id").asLong();
            page.open(base + "/sales/" + voucher);
            awaitSolved(page);
            WebElement button = page.find("#buy");
            page.await(Duration.ofSeconds(20)).until(driver -> button.isEnabled());
            button.click();

            // Let in, and the shopper does not click within the admission's 5 s: the turn passes, and the button offers
            // a place again, behind everyone.
            page.await(Duration.ofSeconds(30)).until(driver -> "Buy now".equals(button.getText()) && button.isEnabled());
            awaitText(page, "#room-place", text -> text.startsWith("Your turn came and passed"));
            assertThat(button.getText()).isEqualTo("Queue again");
            assertThat(button.isEnabled()).isTrue();
            button.click();
            // Nobody else in the room: the new place is let in at once, its turn a new one.
            page.await(Duration.ofSeconds(15)).until(driver -> "Buy now".equals(button.getText()) && button.isEnabled());
            assertThat(page.find("#room-detail").getText()).as("behind the place let in before")
                    .isEqualTo("You were 2nd in the room.");

            // The order this turn buys cannot be written (a row of this shopper MySQL has and Redis does not know of):
            // it fails, its unit goes back, and the page shows the turn given back.
            JdbcTemplate db = shop.app().getBean(JdbcTemplate.class);
            long poison = 47_000_000L + voucher;
            db.update("INSERT INTO voucher_order (id, user_id, voucher_id, status, created_at) VALUES (?, ?, ?, 'FAILED', "
                    + "NOW(3))", poison, shopperId(page), voucher);
            button.click();
            ShopBehindNginx.awaitStatus(page, "FAILED", Duration.ofSeconds(40));
            page.await(Duration.ofSeconds(10)).until(driver -> "Buy now".equals(button.getText()) && button.isEnabled());
            assertThat(page.find("#room-place").getText()).isEqualTo("Your order failed, and your turn is given back: buy now");
            db.update("DELETE FROM voucher_order WHERE id = ?", poison);
            button.click();
            ShopBehindNginx.awaitStatus(page, "AWAITING_PAYMENT", Duration.ofSeconds(20));
            assertThat(api.audit(voucher).path("orders").asLong()).isEqualTo(1);
        }
    }

    private static void awaitText(Browser browser, String css, java.util.function.Predicate<String> until) {
        try {
            browser.await(Duration.ofSeconds(30)).until(driver -> until.test(browser.find(css).getText()));
        } catch (TimeoutException e) {
            throw new AssertionError(css + " says [" + browser.find(css).getText() + "]; the page's status ["
                    + browser.find("#order-status").getText() + "]", e);
        }
    }

    private static void awaitSolved(Browser browser) {
        browser.await(Duration.ofSeconds(60)).until(driver -> "verified".equals(
                browser.script("var w = document.getElementById('challenge'); return w && w.getState ? w.getState() : null;")));
    }

    private static long shopperId(Browser page) {
        return Long.parseLong(page.find("#room").getDomAttribute("data-shopper"));
    }

    /** {@link #AHEAD} new shoppers whom the lottery, with both pages' shoppers entering too, puts before both. */
    private static List<String> aheadOfBoth(String seed, long a, long b) {
        List<String> candidates = new ArrayList<>();
        while (true) {
            candidates.addAll(api.mintShoppers(6));
            List<String> found = aheadOfBoth(seed, a, b, candidates, new ArrayList<>(), 0);
            if (found != null) {
                return found;
            }
        }
    }

    private static List<String> aheadOfBoth(String seed, long a, long b, List<String> candidates, List<String> chosen,
            int from) {
        if (chosen.size() == AHEAD) {
            List<String> ids = new ArrayList<>(chosen.stream().map(token -> Long.toString(Tokens.shopperId(token))).toList());
            ids.add(Long.toString(a));
            ids.add(Long.toString(b));
            String hash = RoomLottery.entrantsHash(ids);
            long first = Math.min(RoomLottery.number(seed, hash, a), RoomLottery.number(seed, hash, b));
            return chosen.stream().allMatch(token -> RoomLottery.number(seed, hash, Tokens.shopperId(token)) < first)
                    ? List.copyOf(chosen) : null;
        }
        for (int i = from; i < candidates.size(); i++) {
            chosen.add(candidates.get(i));
            List<String> found = aheadOfBoth(seed, a, b, candidates, chosen, i + 1);
            chosen.remove(chosen.size() - 1);
            if (found != null) {
                return found;
            }
        }
        return null;
    }

    /** The page whose shopper the lottery puts before the other's, with {@code ahead} entering too. */
    private static Browser placedFirst(String seed, List<String> ahead, Browser a, Browser b) {
        List<String> ids = new ArrayList<>(ahead.stream().map(token -> Long.toString(Tokens.shopperId(token))).toList());
        ids.add(Long.toString(shopperId(a)));
        ids.add(Long.toString(shopperId(b)));
        String hash = RoomLottery.entrantsHash(ids);
        return RoomLottery.number(seed, hash, shopperId(a)) < RoomLottery.number(seed, hash, shopperId(b)) ? a : b;
    }
}
