package dev.seckill.sale.room;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import dev.seckill.support.Api;
import dev.seckill.support.Handshake;
import dev.seckill.support.Instances;
import dev.seckill.support.Nginx;
import dev.seckill.support.Tokens;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A waiting room through Nginx, on two instances that share Redis and MySQL, counted from the client's side: the
 * lottery places everyone who arrived in the window, the published seed recomputes the order (in Java and with
 * {@code scripts/room-draw}), places are let in in batches and in order, an admission buys once and only for its
 * shopper, nobody buys before their turn or holds two places, the room says sold out to those still waiting, and a
 * unit that comes back lets the next place in. Run on each order path (the purchase script is shared, its callers
 * are not), one of them with tickets asked (the challenge at the door).
 */
@Timeout(value = 4, unit = TimeUnit.MINUTES)
abstract class WaitingRoomSuite {

    static final int STOCK = 6;
    static final int ENTRANTS = 24;
    /** With batches every 2 s: two places a batch. */
    static final int PER_SECOND = 1;
    static final Duration ARRIVAL_WINDOW = Duration.ofSeconds(6);
    /** Joins open this long before the sale. */
    static final Duration PRE_QUEUE = Duration.ofSeconds(3);
    static final Duration PRESENCE = Duration.ofSeconds(8);
    static final Duration LIFETIME = Duration.ofSeconds(15);

    static ConfigurableApplicationContext instanceA;
    static ConfigurableApplicationContext instanceB;
    static Nginx nginx;
    static Api edge;
    static boolean ticketsAsked;
    static boolean asyncPath;

    static void start(String mode, boolean tickets) {
        ticketsAsked = tickets;
        asyncPath = mode.equals("async");
        Map<String, String> settings = new LinkedHashMap<>();
        // Batches far apart: each buys well before the next is let in, even on a loaded machine.
        settings.put("seckill.room.batch-interval", "2s");
        // An admission runs from the poll that let its shopper in, and a join after the window is such a poll: the
        // first places are let in as the late arrival joins, seconds before the test reads the draw, runs
        // scripts/room-draw and polls for the first place. Long enough for that on a machine shared with another test
        // JVM; short enough for the lapse to be waited out.
        settings.put("seckill.room.admission-lifetime", LIFETIME.toSeconds() + "s");
        // Nobody looking at an admission gives it up this soon: the first places are looked at within it (above).
        settings.put("seckill.room.presence", PRESENCE.toSeconds() + "s");
        settings.put("seckill.rate-limit.room-polls.permits", "1000");
        // a room's keys go this long after its sale ends
        settings.put("seckill.room.keep-after-sale", "2s");
        settings.put("seckill.room.pre-queue", PRE_QUEUE.toSeconds() + "s");
        settings.put("seckill.rate-limit.tickets.permits", "1000");
        settings.put("seckill.tickets.required", Boolean.toString(tickets));
        settings.put("seckill.tickets.challenge-difficulty", "2000");
        instanceA = Instances.start(mode, "room-" + mode + "-a", settings);
        instanceB = Instances.start(mode, "room-" + mode + "-b", settings);
        nginx = Nginx.start(List.of(Instances.port(instanceA), Instances.port(instanceB)), "");
        edge = new Api(nginx.port());
    }

    @AfterAll
    static void stop() {
        if (nginx != null) {
            nginx.close();
        }
        Instances.closeAll(instanceA, instanceB);
    }

    @Test
    void theLotteryPlacesTheWindowsArrivalsAndLetsThemBuyInTheirOrderOnly() throws Exception {
        List<String> tokens = edge.mintShoppers(ENTRANTS + 1);
        // Seconds ahead: the first requests to cold instances on a loaded machine take a while.
        Instant opening = Instant.now().plusSeconds(8);
        long voucher = createRoomVoucher(STOCK, opening);
        String late = tokens.get(ENTRANTS);
        List<String> entrants = tokens.subList(0, ENTRANTS);

        // Before the room opens (its pre-queue, before the sale): told when to come back. The commitment is out already.
        join(voucher, entrants.get(0)).expectProblem(409, "sale-not-started");
        String commitment = edge.get("/vouchers/" + voucher + "/room").expectStatus(200).json().path("commitment").asString();
        edge.get("/vouchers/" + voucher + "/room/draw").expectProblem(409, "draw-not-yet");
        // The pre-queue: in the draw before the sale opens, as much as any arrival in the window.
        awaitUntil(opening.minus(PRE_QUEUE));
        JsonNode early = join(voucher, entrants.get(1)).expectStatus(200).json();
        assertThat(early.path("state").asString()).as("%s", early).isEqualTo("in-the-draw");
        assertThat(Instant.now()).as("joined before the opening").isBefore(opening);
        awaitUntil(opening);

        // The window: everyone in the draw (all at once, as a crowd arrives), nobody with a place yet; twice in is
        // still one place; no way to buy.
        ExecutorService crowd = Executors.newFixedThreadPool(ENTRANTS);
        List<Future<JsonNode>> joins = new ArrayList<>();
        entrants.forEach(token -> joins.add(crowd.submit(() -> join(voucher, token).expectStatus(200).json())));
        for (Future<JsonNode> joining : joins) {
            JsonNode joined = joining.get(60, TimeUnit.SECONDS);
            assertThat(joined.path("state").asString()).isEqualTo("in-the-draw");
            assertThat(joined.path("place").isNull()).isTrue();
        }
        crowd.shutdown();
        JsonNode again = join(voucher, entrants.get(0)).expectStatus(200).json();
        assertThat(again.path("waiting").asLong()).as("a second join holds no second place").isEqualTo(ENTRANTS);
        edge.seckill(voucher, entrants.get(0)).expectProblem(403, "not-admitted");
        Handshake.buy(edge, voucher, entrants.get(0), "made-up-ticket-000000000").expectProblem(403, "not-admitted");
        Handshake.ticket(edge, voucher, entrants.get(0), null).expectProblem(409, "waiting-room-required");
        place(voucher, late).expectProblem(404, "not-in-waiting-room");

        // The draw: after the window, a late arrival queues behind it.
        awaitUntil(opening.plus(ARRIVAL_WINDOW));
        JsonNode lateJoin = join(voucher, late).expectStatus(200).json();
        assertThat(lateJoin.path("place").asLong()).as("behind every entrant of the draw").isEqualTo(ENTRANTS + 1);
        JsonNode draw = edge.get("/vouchers/" + voucher + "/room/draw").expectStatus(200).json();
        String seed = draw.path("seed").asString();
        assertThat(draw.path("commitment").asString()).isEqualTo(commitment).isEqualTo(RoomLottery.commitment(seed));
        List<String> order = new ArrayList<>();
        draw.path("entrants").forEach(id -> order.add(id.asString()));
        List<String> ids = entrants.stream().map(token -> Long.toString(Tokens.shopperId(token))).toList();
        String entrantsHash = RoomLottery.entrantsHash(ids);
        assertThat(draw.path("entrantsHash").asString()).isEqualTo(entrantsHash);
        List<String> recomputed = ids.stream()
                .sorted(Comparator.comparingLong((String id) -> RoomLottery.number(seed, entrantsHash, Long.parseLong(id)))
                        .thenComparing(Comparator.naturalOrder()))
                .toList();
        assertThat(order).as("the published order is the seed's").isEqualTo(recomputed);
        assertThat(RoomDrawScript.check(nginx.port(), voucher, Tokens.shopperId(entrants.get(3))))
                .contains("the order recomputes").contains("place " + (order.indexOf(Long.toString(
                        Tokens.shopperId(entrants.get(3)))) + 1));

        // Each polls until let in, and buys at once with the admission; someone else's admission buys nothing.
        Map<String, String> tokenOf = new HashMap<>();
        entrants.forEach(token -> tokenOf.put(Long.toString(Tokens.shopperId(token)), token));
        String first = tokenOf.get(order.get(0));
        String firstTicket = awaitAdmission(voucher, first).path("ticket").asString();
        String stranger = tokenOf.get(order.get(ENTRANTS - 1));
        Handshake.buy(edge, voucher, stranger, firstTicket).expectProblem(403, "not-admitted");
        JsonNode waiting = place(voucher, stranger).expectStatus(200).json();
        assertThat(waiting.path("state").asString()).isEqualTo("waiting");
        assertThat(waiting.path("place").asLong()).isEqualTo(ENTRANTS);
        // Far beyond the units: told they will likely run out first, not given a time.
        assertThat(waiting.path("turnLikely").asBoolean(true)).as("%s", waiting).isFalse();
        assertThat(waiting.path("etaSeconds").isNull()).as("%s", waiting).isTrue();
        assertThat(waiting.path("unitsLeft").asLong()).isLessThanOrEqualTo(STOCK);
        String secondPlace = tokenOf.get(order.get(1));
        JsonNode near = place(voucher, secondPlace).expectStatus(200).json();
        if (near.path("state").asString().equals("waiting")) {
            assertThat(near.path("turnLikely").asBoolean()).as("the second of %d units: %s", STOCK, near).isTrue();
            assertThat(near.path("etaSeconds").asLong()).isPositive();
        }

        List<String> bought = buyInTurn(voucher, order, tokenOf);
        // Each batch buys within its interval, so the units go to the first places, whichever of a batch clicked first.
        assertThat(bought).as("the first places bought").containsExactlyInAnyOrderElementsOf(order.subList(0, STOCK));

        // Sold out: those still waiting are told so by the room, no purchase needed; within a second, as an instance
        // answers a shopper it knows to be waiting from the room's numbers it read at most a second ago.
        long soldAt = System.nanoTime();
        Awaitility.await("told sold out").atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(100))
                .until(() -> place(voucher, stranger).expectStatus(200).json().path("state").asString(), "sold-out"::equals);
        assertThat(Duration.ofNanos(System.nanoTime() - soldAt)).isLessThan(Duration.ofMillis(2_500));
        JsonNode room = edge.asAdmin("GET", "/admin/vouchers/" + voucher + "/live", null).expectStatus(200).json()
                .path("room");
        assertThat(room.path("inRoom").asLong()).as("the dashboard's room: %s", room).isEqualTo(ENTRANTS + 1);
        assertThat(room.path("letIn").asLong()).isBetween((long) STOCK, (long) ENTRANTS + 1);
        assertThat(room.path("waiting").asLong()).isEqualTo(ENTRANTS + 1 - room.path("letIn").asLong());
        assertThat(room.path("openAdmissions").asLong()).as("every admission spent").isZero();
        assertThat(room.path("drawn").asBoolean()).isTrue();
        JsonNode audit = edge.awaitNoPendingOrders(voucher, Duration.ofSeconds(30));
        assertThat(audit.path("orders").asLong()).isEqualTo(STOCK);
        assertThat(audit.path("redisStock").asLong()).isZero();
        assertThat(audit.path("consistent").asBoolean()).as("%s", audit).isTrue();
    }

    @Test
    void theRoomsPublicStateReachesTheInstancesAboutOnceASecondHoweverManyAskAndMovesTheRoomOn() throws Exception {
        DrawnRoom room = drawnRoom(2, 4);
        long voucher = room.voucher();
        String now = "/vouchers/" + voucher + "/room/now";
        long before = publicStateRequests();

        // 16 pages asking five times a second for 4 s, half of them with a query string of their own; nobody asks
        // for a place.
        long started = System.nanoTime();
        long askFor = TimeUnit.SECONDS.toNanos(4);
        ExecutorService pages = Executors.newFixedThreadPool(16);
        List<Future<Long>> asking = new ArrayList<>();
        for (int page = 0; page < 16; page++) {
            String url = page % 2 == 0 ? now : now + "?page=" + page;
            asking.add(pages.submit(() -> {
                long answered = 0;
                while (System.nanoTime() - started < askFor) {
                    JsonNode state = edge.get(url).expectStatus(200).json();
                    assertThat(state.path("drawn").asBoolean()).as("%s", state).isTrue();
                    assertThat(state.path("waiting").asLong()).isEqualTo(4);
                    answered++;
                    Thread.sleep(200);
                }
                return answered;
            }));
        }
        long answered = 0;
        for (Future<Long> page : asking) {
            answered += page.get(60, TimeUnit.SECONDS);
        }
        pages.shutdown();
        double seconds = (System.nanoTime() - started) / 1e9;
        long reached = publicStateRequests() - before;
        assertThat(reached).as("%d answers over %.1f s, kept a second at a time", answered, seconds)
                .isPositive().isLessThanOrEqualTo((long) Math.ceil(seconds) + 2);
        assertThat(answered).isGreaterThan(10 * reached);

        // Watching the public state alone moved the room on: both units' places let in, no more.
        JsonNode state = Awaitility.await("the first batch let in").atMost(Duration.ofSeconds(10))
                .pollInterval(Duration.ofMillis(250)).until(() -> edge.get(now).expectStatus(200).json(),
                        answer -> answer.path("admittedUpTo").asLong() == 2);
        assertThat(state.path("unitsLeft").asLong()).as("both held by the open admissions: %s", state).isZero();
        assertThat(state.path("soldOut").asBoolean()).isFalse();
        assertThat(state.path("admissionsPerSecond").asInt()).isEqualTo(PER_SECOND);
        assertThat(place(voucher, room.inPlaceOrder().get(0)).expectStatus(200).json().path("state").asString())
                .isEqualTo("admitted");

        // Only the id's one spelling is the route, and only to read it.
        for (String variant : List.of("0" + voucher, "0x" + Long.toHexString(voucher), "+" + voucher,
                "%D9%A1")) {
            Api.Response answer = edge.get("/vouchers/" + variant + "/room/now").expectProblem(404, "not-found");
            assertThat(answer.instanceId()).as(variant).isEqualTo("nginx");
        }
        edge.post(now, "{}", "Content-Type", "application/json").expectProblem(405, "method-not-allowed");
        edge.get("/vouchers/0" + voucher + "/room").expectProblem(400, "invalid-parameter");
        edge.get("/vouchers/0x" + Long.toHexString(voucher) + "/room/draw").expectProblem(400, "invalid-parameter");
        assertThat(publicStateRequests() - before).as("no variant reached an instance").isLessThanOrEqualTo(reached + 2);
    }

    /** Requests for any room's public state that reached either instance so far. */
    private static long publicStateRequests() {
        return Stream.of(instanceA, instanceB).mapToLong(instance -> instance.getBean(MeterRegistry.class)
                .find("http.server.requests").tag("uri", "/vouchers/{voucherId}/room/now").timers().stream()
                .mapToLong(Timer::count).sum()).sum();
    }

    @Test
    void anAdmissionLapsesUnusedAndAUnitThatComesBackLetsTheNextPlaceIn() throws Exception {
        DrawnRoom room = drawnRoom(1, 3);
        long voucher = room.voucher();

        // The first is let in and walks away: after its lifetime the admission is gone, and buys nothing.
        String walkedAway = room.inPlaceOrder().get(0);
        String unused = awaitAdmission(voucher, walkedAway).path("ticket").asString();
        // While that admission holds the one unit, the next place is promised no time.
        JsonNode behindIt = place(voucher, room.inPlaceOrder().get(1)).expectStatus(200).json();
        assertThat(behindIt.path("state").asString()).isEqualTo("waiting");
        assertThat(behindIt.path("unitsLeft").asLong()).as("%s", behindIt).isZero();
        assertThat(behindIt.path("turnLikely").asBoolean(true)).isFalse();
        assertThat(behindIt.path("etaSeconds").isNull()).isTrue();
        Awaitility.await("the admission lapses").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(250))
                .until(() -> place(voucher, walkedAway).json().path("state").asString(), "admission-lapsed"::equals);
        Handshake.buy(edge, voucher, walkedAway, unused).expectProblem(403, "not-admitted");

        // The second buys the one unit; the third is told sold out until that order is cancelled.
        String second = room.inPlaceOrder().get(1);
        String orderId = Handshake.buy(edge, voucher, second, awaitAdmission(voucher, second).path("ticket").asString())
                .expectStatus(201, 202).json().path("orderId").asString();
        String third = room.inPlaceOrder().get(2);
        Awaitility.await("sold out for the third").atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(250))
                .until(() -> place(voucher, third).json().path("state").asString(), "sold-out"::equals);
        edge.awaitNoPendingOrders(voucher, Duration.ofSeconds(30));
        edge.post("/orders/" + orderId + "/cancel", null, "Authorization", "Bearer " + second).expectStatus(200);
        String ticket = awaitAdmission(voucher, third).path("ticket").asString();
        Handshake.buy(edge, voucher, third, ticket).expectStatus(201, 202);
        JsonNode audit = edge.awaitNoPendingOrders(voucher, Duration.ofSeconds(30));
        assertThat(audit.path("consistent").asBoolean()).as("%s", audit).isTrue();
        assertThat(audit.path("redisStock").asLong()).isZero();

        // A fresh sale: the room lets its places in again from the front, the one who walked away first.
        edge.asAdmin("PUT", "/admin/vouchers/" + voucher + "/stock", "{\"stock\":1,\"deleteOrders\":true}").expectStatus(200);
        String again = awaitAdmission(voucher, walkedAway).path("ticket").asString();
        assertThat(place(voucher, third).json().path("state").asString()).as("behind the first place").isEqualTo("waiting");
        Handshake.buy(edge, voucher, walkedAway, again).expectStatus(201, 202);
        assertThat(edge.awaitNoPendingOrders(voucher, Duration.ofSeconds(30)).path("orders").asLong()).isEqualTo(1);
    }

    @Test
    void anAdmissionNobodyLooksAtPassesOnAfterThePresenceWindowAndItsShopperMayQueueAgainBehindEveryone()
            throws Exception {
        DrawnRoom room = drawnRoom(1, 3);
        long voucher = room.voucher();
        String walkedAway = room.inPlaceOrder().get(0);
        String second = room.inPlaceOrder().get(1);
        String third = room.inPlaceOrder().get(2);

        // The room moves on while only its public state is asked; nobody looks at the first place's admission.
        Awaitility.await("the first place let in").atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(100))
                .until(() -> edge.get("/vouchers/" + voucher + "/room/now").expectStatus(200).json()
                        .path("admittedUpTo").asLong() >= 1);
        long turnCame = System.nanoTime();
        JsonNode secondsTurn = awaitAdmission(voucher, second);
        assertThat(Duration.ofNanos(System.nanoTime() - turnCame)).as("passed on within the presence window, "
                + "not after the lifetime").isLessThan(LIFETIME.minusSeconds(1));
        assertThat(place(voucher, walkedAway).json().path("state").asString()).isEqualTo("admission-lapsed");

        // Back: joining again queues them behind everyone, once however often they join; no other place moves.
        JsonNode again = join(voucher, walkedAway).expectStatus(200).json();
        assertThat(again.path("state").asString()).as("%s", again).isEqualTo("waiting");
        assertThat(again.path("place").asLong()).isEqualTo(4);
        assertThat(join(voucher, walkedAway).expectStatus(200).json().path("place").asLong()).isEqualTo(4);
        assertThat(place(voucher, third).json().path("place").asLong()).isEqualTo(3);
        List<String> drawn = new ArrayList<>();
        edge.get("/vouchers/" + voucher + "/room/draw").expectStatus(200).json().path("entrants")
                .forEach(id -> drawn.add(id.asString()));
        assertThat(drawn).as("the draw as published").containsExactlyElementsOf(room.inPlaceOrder().stream()
                .map(token -> Long.toString(Tokens.shopperId(token))).toList());

        Handshake.buy(edge, voucher, second, secondsTurn.path("ticket").asString()).expectStatus(201, 202);
        Awaitility.await("sold out for the place queued again").atMost(Duration.ofSeconds(10))
                .pollInterval(Duration.ofMillis(250))
                .until(() -> place(voucher, walkedAway).json().path("state").asString(), "sold-out"::equals);
        JsonNode audit = edge.awaitNoPendingOrders(voucher, Duration.ofSeconds(30));
        assertThat(audit.path("orders").asLong()).isEqualTo(1);
        assertThat(audit.path("consistent").asBoolean()).as("%s", audit).isTrue();
    }

    @Test
    void anAdmissionWhoseOrderIsGivenUpIsGivenBackAndBuysAgain() throws Exception {
        Assumptions.assumeTrue(asyncPath, "orders are given up after their retries on the async path");
        DrawnRoom room = drawnRoom(1, 2);
        long voucher = room.voucher();
        String first = room.inPlaceOrder().get(0);
        long shopperId = Tokens.shopperId(first);
        String ticket = awaitAdmission(voucher, first).path("ticket").asString();
        // A row of this shopper that Redis does not know of: every insert of their order breaks the unique key.
        JdbcTemplate db = instanceA.getBean(JdbcTemplate.class);
        long poison = 46_000_000L + voucher;
        db.update("INSERT INTO voucher_order (id, user_id, voucher_id, status, created_at) VALUES (?, ?, ?, 'FAILED', "
                + "NOW(3))", poison, shopperId, voucher);
        String failed = Handshake.buy(edge, voucher, first, ticket).expectStatus(202).json().path("orderId").asString();
        Awaitility.await("the order given up").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200))
                .until(() -> edge.get("/orders/" + failed, "Authorization", "Bearer " + first).json().path("status")
                        .asString(), "FAILED"::equals);
        db.update("DELETE FROM voucher_order WHERE id = ?", poison);

        JsonNode givenBack = place(voucher, first).expectStatus(200).json();
        assertThat(givenBack.path("state").asString()).as("%s", givenBack).isEqualTo("admitted");
        assertThat(givenBack.path("ticket").asString()).isNotEqualTo(ticket);
        assertThat(place(voucher, room.inPlaceOrder().get(1)).json().path("state").asString())
                .as("the unit is the given-back admission's").isEqualTo("waiting");
        String orderId = Handshake.buy(edge, voucher, first, givenBack.path("ticket").asString()).expectStatus(202).json()
                .path("orderId").asString();
        assertThat(orderId).isNotEqualTo(failed);
        JsonNode audit = edge.awaitNoPendingOrders(voucher, Duration.ofSeconds(30));
        assertThat(audit.path("orders").asLong()).isEqualTo(1);
        assertThat(audit.path("consistent").asBoolean()).as("%s", audit).isTrue();
        assertThat(place(voucher, first).json().path("state").asString()).as("bought: given back once")
                .isEqualTo("sold-out");
    }

    @Test
    void anAdminPausesTheRoomChangesItsRateAndClosesItForEveryInstance() throws Exception {
        DrawnRoom room = drawnRoom(6, 6);
        long voucher = room.voucher();
        String path = "/admin/vouchers/" + voucher + "/room";
        // Nobody but an admin; nothing but a rate in bounds.
        edge.put(path, "{\"paused\":true}").expectStatus(401);
        edge.put(path, "{\"paused\":true}", "Authorization", "Bearer " + room.inPlaceOrder().get(0)).expectStatus(401);
        edge.asAdmin("PUT", path, "{\"admissionsPerSecond\":0}").expectProblem(400, "validation-failed");
        edge.asAdmin("PUT", path, "{\"paused\":\"soon\"}").expectProblem(400, "malformed-body");
        edge.asAdmin("PUT", "/admin/vouchers/" + voucher + "0/room", "{\"paused\":true}").expectProblem(404,
                "voucher-not-found");

        JsonNode paused = edge.asAdmin("PUT", path, "{\"paused\":true}").expectStatus(200).json();
        assertThat(paused.path("paused").asBoolean()).as("%s", paused).isTrue();
        assertThat(paused.path("admissionsPerSecond").asInt()).isEqualTo(PER_SECOND);
        // Paused: the batches that fall due let nobody in, whichever instance is asked.
        long before = now(voucher).path("admittedUpTo").asLong();
        Thread.sleep(4_500);
        JsonNode stillPaused = now(voucher);
        assertThat(stillPaused.path("paused").asBoolean()).as("%s", stillPaused).isTrue();
        assertThat(stillPaused.path("admittedUpTo").asLong()).isEqualTo(before);
        JsonNode waiting = place(voucher, room.inPlaceOrder().get(5)).expectStatus(200).json();
        assertThat(waiting.path("paused").asBoolean()).as("%s", waiting).isTrue();

        // Resumed at 4 a second: 8 places a 2 s batch, the rest of the room in the next one.
        JsonNode faster = edge.asAdmin("PUT", path, "{\"paused\":false,\"admissionsPerSecond\":4}").expectStatus(200)
                .json();
        assertThat(faster.path("admissionsPerSecond").asInt()).as("%s", faster).isEqualTo(4);
        assertThat(faster.path("voucherRate").asInt()).isEqualTo(PER_SECOND);
        Awaitility.await("all six let in at the new rate").atMost(Duration.ofSeconds(8))
                .pollInterval(Duration.ofMillis(250)).until(() -> now(voucher).path("admittedUpTo").asLong() == 6);
        assertThat(now(voucher).path("admissionsPerSecond").asInt()).isEqualTo(4);

        // Closed: for good. A newcomer cannot join, those in the room are told so; the admissions given stay good.
        String first = room.inPlaceOrder().get(0);
        String ticket = awaitAdmission(voucher, first).path("ticket").asString();
        JsonNode closed = edge.asAdmin("PUT", path, "{\"closed\":true}").expectStatus(200).json();
        assertThat(closed.path("closed").asBoolean()).isTrue();
        join(voucher, edge.mintShoppers(1).get(0)).expectProblem(409, "room-closed");
        edge.asAdmin("PUT", path, "{\"closed\":false}").expectProblem(409, "room-closed");
        Handshake.buy(edge, voucher, first, ticket).expectStatus(201, 202);
        assertThat(edge.asAdmin("GET", path, null).expectStatus(200).json().path("closed").asBoolean()).isTrue();
    }

    /** The room's public state through Nginx's cache, at most a second old. */
    private static JsonNode now(long voucher) {
        return edge.get("/vouchers/" + voucher + "/room/now").expectStatus(200).json();
    }

    @Test
    void aFreshSaleRevokesTheAdmissionsOfTheSaleBefore() throws Exception {
        DrawnRoom room = drawnRoom(2, 3);
        long voucher = room.voucher();
        String first = room.inPlaceOrder().get(0);
        String second = room.inPlaceOrder().get(1);
        awaitAdmission(voucher, first);
        String secondsEarlierTicket = awaitAdmission(voucher, second).path("ticket").asString();

        // A fresh sale of one unit: the first place is let in again, the second waits, and its admission of the sale
        // before, its ticket still alive, buys nothing.
        edge.asAdmin("PUT", "/admin/vouchers/" + voucher + "/stock", "{\"stock\":1,\"deleteOrders\":true}").expectStatus(200);
        String firstsTicket = awaitAdmission(voucher, first).path("ticket").asString();
        assertThat(place(voucher, second).json().path("state").asString()).isEqualTo("waiting");
        Handshake.buy(edge, voucher, second, secondsEarlierTicket).expectProblem(403, "not-admitted");
        Handshake.buy(edge, voucher, first, firstsTicket).expectStatus(201, 202);
        JsonNode audit = edge.awaitNoPendingOrders(voucher, Duration.ofSeconds(30));
        assertThat(audit.path("orders").asLong()).isEqualTo(1);
        assertThat(audit.path("consistent").asBoolean()).as("%s", audit).isTrue();
    }

    @Test
    void aRoomsKeysLeaveRedisOnceItsSaleHasEnded() throws Exception {
        Instant opening = Instant.now().plusSeconds(1);
        Instant end = opening.plus(ARRIVAL_WINDOW).plusSeconds(4);
        long voucher = edge.createRoomVoucher(1, opening, end, ARRIVAL_WINDOW, PER_SECOND);
        List<String> tokens = edge.mintShoppers(2);
        awaitUntil(opening);
        tokens.forEach(token -> join(voucher, token).expectStatus(200));
        awaitUntil(opening.plus(ARRIVAL_WINDOW));
        tokens.forEach(token -> place(voucher, token).expectStatus(200));
        assertThat(roomNumbers(voucher).path("inRoom").asLong()).as("while the sale runs").isEqualTo(2);
        assertThat(roomNumbers(voucher).path("letIn").asLong()).isPositive();

        awaitUntil(end.plusSeconds(2));
        Awaitility.await("the room's keys expire").atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(500))
                .until(() -> roomNumbers(voucher).path("inRoom").asLong() == 0 && roomNumbers(voucher).path("letIn").asLong() == 0
                        && !roomNumbers(voucher).path("drawn").asBoolean());
        // Its draw, never asked before, is not published from the nothing left: an empty list would pass for it.
        edge.get("/vouchers/" + voucher + "/room/draw").expectProblem(404, "no-waiting-room");
    }

    private static JsonNode roomNumbers(long voucher) {
        return edge.asAdmin("GET", "/admin/vouchers/" + voucher + "/live", null).expectStatus(200).json().path("room");
    }

    @Test
    void placesAreLetInAtTheRoomsPaceHoweverManyPoll() throws Exception {
        // As many units as places, nobody buying: only the pace limits who is let in.
        DrawnRoom room = drawnRoom(ENTRANTS, ENTRANTS);
        long voucher = room.voucher();
        List<String> tokens = room.inPlaceOrder();

        // Every page polls ten times a second from both instances, so polls overlap on their way into Redis.
        long started = System.nanoTime();
        long pollFor = TimeUnit.SECONDS.toNanos(5);
        ExecutorService pages = Executors.newFixedThreadPool(ENTRANTS);
        List<Future<?>> polling = new ArrayList<>();
        for (String token : tokens) {
            polling.add(pages.submit(() -> {
                while (System.nanoTime() - started < pollFor) {
                    place(voucher, token).expectStatus(200);
                    Thread.sleep(100);
                }
                return null;
            }));
        }
        for (Future<?> page : polling) {
            page.get(60, TimeUnit.SECONDS);
        }
        pages.shutdown();
        double seconds = (System.nanoTime() - started) / 1e9;
        long letIn = edge.asAdmin("GET", "/admin/vouchers/" + voucher + "/live", null).expectStatus(200).json()
                .path("room").path("letIn").asLong();
        // A batch at the first poll, then one each interval: two places every 2 s.
        long batch = PER_SECOND * 2L;
        long atMost = batch * ((long) Math.floor(seconds / 2) + 1);
        assertThat(letIn).as("let in over %.1f s of polling, %d places a batch every 2 s", seconds, batch)
                .isBetween(batch, atMost);
    }

    /** Everyone polls at once, as pages do, and buys the moment they are let in; the buyers in the order they bought. */
    private static List<String> buyInTurn(long voucher, List<String> order, Map<String, String> tokenOf) throws Exception {
        ExecutorService pages = Executors.newFixedThreadPool(order.size());
        List<Future<Long>> boughtAt = new ArrayList<>();
        for (String shopper : order) {
            String token = tokenOf.get(shopper);
            boughtAt.add(pages.submit(() -> {
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                while (System.nanoTime() < deadline) {
                    JsonNode place = place(voucher, token).expectStatus(200).json();
                    long placeNumber = place.path("place").asLong();
                    long letIn = place.path("admittedUpTo").asLong();
                    switch (place.path("state").asString()) {
                        case "admitted" -> assertThat(placeNumber).as("let in: within the places let in").isLessThanOrEqualTo(letIn);
                        case "waiting" -> assertThat(placeNumber).as("waiting: behind the places let in").isGreaterThan(letIn);
                        default -> { }
                    }
                    switch (place.path("state").asString()) {
                        case "admitted" -> {
                            Api.Response bought = Handshake.buy(edge, voucher, token, place.path("ticket").asString());
                            return bought.status() == 201 || bought.status() == 202 ? System.nanoTime() : null;
                        }
                        case "sold-out", "admission-lapsed" -> {
                            return null;
                        }
                        default -> Thread.sleep(100);
                    }
                }
                throw new AssertionError("never let in nor told sold out: " + shopper);
            }));
        }
        Map<String, Long> at = new HashMap<>();
        for (int i = 0; i < order.size(); i++) {
            Long when = boughtAt.get(i).get(90, TimeUnit.SECONDS);
            if (when != null) {
                at.put(order.get(i), when);
            }
        }
        pages.shutdown();
        return at.entrySet().stream().sorted(Map.Entry.comparingByValue()).map(Map.Entry::getKey).toList();
    }

    private static JsonNode awaitAdmission(long voucher, String token) {
        return Awaitility.await("let in").atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(100))
                .until(() -> place(voucher, token).expectStatus(200).json(),
                        place -> place.path("state").asString().equals("admitted"));
    }

    /** A room voucher and its shoppers' tokens in the order the lottery placed them. */
    record DrawnRoom(long voucher, List<String> inPlaceOrder) {
    }

    /** A room of {@code stock} units that {@code shoppers} joined in its arrival window, drawn. */
    private static DrawnRoom drawnRoom(int stock, int shoppers) throws InterruptedException {
        Instant opening = Instant.now().plusSeconds(1);
        long voucher = createRoomVoucher(stock, opening);
        List<String> tokens = edge.mintShoppers(shoppers);
        awaitUntil(opening);
        tokens.forEach(token -> join(voucher, token).expectStatus(200));
        awaitUntil(opening.plus(ARRIVAL_WINDOW));
        Map<String, String> tokenOf = new HashMap<>();
        tokens.forEach(token -> tokenOf.put(Long.toString(Tokens.shopperId(token)), token));
        List<String> inPlaceOrder = new ArrayList<>();
        edge.get("/vouchers/" + voucher + "/room/draw").expectStatus(200).json().path("entrants")
                .forEach(id -> inPlaceOrder.add(tokenOf.get(id.asString())));
        return new DrawnRoom(voucher, inPlaceOrder);
    }

    private static long createRoomVoucher(int stock, Instant opening) {
        return edge.createRoomVoucher(stock, opening, opening.plusSeconds(3_600), ARRIVAL_WINDOW, PER_SECOND);
    }

    private static Api.Response join(long voucher, String token) {
        // Where tickets are asked, the challenge is solved at the door (given before the opening too).
        String body = ticketsAsked
                ? "{\"solution\":\"" + Handshake.solve(Handshake.challenge(edge, voucher, token)) + "\"}" : null;
        return edge.post("/seckill/" + voucher + "/room", body, "Authorization", "Bearer " + token,
                "Content-Type", "application/json");
    }

    private static Api.Response place(long voucher, String token) {
        return edge.get("/seckill/" + voucher + "/room/place", "Authorization", "Bearer " + token);
    }

    private static void awaitUntil(Instant moment) throws InterruptedException {
        long millis = Duration.between(Instant.now(), moment).toMillis();
        if (millis > 0) {
            Thread.sleep(millis + 50);
        }
    }
}
