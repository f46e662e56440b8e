package dev.seckill.voucher.web;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.seckill.support.IntegrationTest;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The sale page and the sale list count every unit once on every read, while units move: shoppers cancel their
 * unpaid orders (the unit goes back on sale) and new shoppers buy the units again. A sold-out sale of 3 with nothing
 * paid must name 3 unpaid orders, never 2: a page that reads the stock and the unpaid orders at two moments, with a
 * cancel committed in between, shows "0 of 3 left · units may come back (2 unpaid orders)", a unit counted nowhere.
 */
class SaleNumbersAddUpIT extends IntegrationTest {

    static final int UNITS = 3;
    static final int MOVES = 40;

    /** The voucher page: {@code <span id="stock">0</span> of <span>3</span> left}. */
    static final Pattern PAGE_STOCK = Pattern.compile("<span id=\"stock\">(\\d+)</span> of <span>(\\d+)</span> left");
    /** A card of the sale list, up to its end. */
    static final Pattern CARD = Pattern.compile("<li class=\"card\" data-voucher=\"(\\d+)\">(.*?)</li>", Pattern.DOTALL);
    static final Pattern CARD_STOCK = Pattern.compile("<span>(\\d+)</span> of <span>(\\d+)</span> left");
    static final Pattern UNPAID = Pattern.compile("units may come back \\((\\d+) unpaid orders?\\)");

    record Holder(String orderId, String token) {
    }

    /** One read of a page: units left, of how many, and the unpaid orders it names (0 when it names none). */
    record Reading(String where, int left, int of, int unpaid, boolean soldOutWords) {
    }

    @Test
    void everyReadCountsEachUnitOnceWhileOrdersAreCancelledAndUnitsBoughtAgain() throws Exception {
        long voucherId = api.createVoucher(UNITS);
        List<String> shoppers = api.mintShoppers(UNITS + MOVES);
        Iterator<String> next = shoppers.iterator();
        Deque<Holder> holders = new ArrayDeque<>();
        for (int i = 0; i < UNITS; i++) {
            holders.add(buy(voucherId, next.next()));
        }
        api.awaitNoPendingOrders(voucherId, Duration.ofSeconds(10));

        AtomicInteger moved = new AtomicInteger();
        CompletableFuture<Void> mover = CompletableFuture.runAsync(() -> {
            while (next.hasNext()) {
                // the oldest order is in MySQL long since: it awaits payment and can be cancelled
                Holder oldest = holders.poll();
                api.post("/orders/" + oldest.orderId() + "/cancel", null, "Authorization", "Bearer " + oldest.token())
                        .expectStatus(200);
                holders.add(buy(voucherId, next.next()));
                moved.incrementAndGet();
            }
        });

        List<Reading> readings = new ArrayList<>();
        while (!mover.isDone()) {
            readings.add(page(voucherId));
            readings.add(listed(voucherId));
        }
        mover.get(1, TimeUnit.SECONDS);

        assertThat(moved.get()).isEqualTo(MOVES);
        List<Reading> soldOut = readings.stream().filter(r -> r.left() == 0).toList();
        // Nothing is paid here: left + unpaid + paid == the units put on sale reads left + unpaid == 3 on a sold-out
        // read (a read with units left names no unpaid orders).
        assertThat(readings).allSatisfy(r -> assertThat(r.of()).isEqualTo(UNITS));
        assertThat(soldOut).allSatisfy(r -> assertThat(r.left() + r.unpaid()).as(r.toString()).isEqualTo(UNITS));
        assertThat(soldOut).as("sold-out reads while units moved (of %d reads)", readings.size()).hasSizeGreaterThan(30);
    }

    /** Buys, and waits until the order is in MySQL: the sale is sold out again until the next cancel. */
    private Holder buy(long voucherId, String token) {
        // a cancelled order's unit is back in Redis a moment after the cancel's answer
        String orderId = await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20))
                .until(() -> api.seckill(voucherId, token), r -> r.status() == 202).json().path("orderId").asString();
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20))
                .until(() -> api.get("/orders/" + orderId, "Authorization", "Bearer " + token).json().path("status").asString(),
                        "AWAITING_PAYMENT"::equals);
        return new Holder(orderId, token);
    }

    private Reading page(long voucherId) {
        String html = api.get("/sales/" + voucherId).expectStatus(200).body();
        Matcher stock = PAGE_STOCK.matcher(html);
        assertThat(stock.find()).as(html).isTrue();
        return reading("page", stock, html);
    }

    private Reading listed(long voucherId) {
        String html = api.get("/").expectStatus(200).body();
        Matcher card = CARD.matcher(html);
        while (card.find()) {
            if (Long.parseLong(card.group(1)) == voucherId) {
                Matcher stock = CARD_STOCK.matcher(card.group(2));
                assertThat(stock.find()).as(card.group()).isTrue();
                return reading("list", stock, card.group(2));
            }
        }
        throw new AssertionError("voucher " + voucherId + " is not on the sale list");
    }

    private static Reading reading(String where, Matcher stock, String html) {
        Matcher unpaid = UNPAID.matcher(html);
        return new Reading(where, Integer.parseInt(stock.group(1)), Integer.parseInt(stock.group(2)),
                unpaid.find() ? Integer.parseInt(unpaid.group(1)) : 0, html.contains("Sold out"));
    }
}
