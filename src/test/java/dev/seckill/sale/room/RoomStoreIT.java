package dev.seckill.sale.room;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import dev.seckill.ratelimit.RateLimitSettings;
import dev.seckill.salestate.VoucherKeys;
import dev.seckill.support.RedisServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The room's place script on a Redis of its own: a shopper's poll counts their limit in the same call, and the room's
 * public state, which no shopper's limit holds, lets batches in as a shopper's poll does.
 */
class RoomStoreIT {

    static final RateLimitSettings.Limit THREE_A_MINUTE = new RateLimitSettings.RoomPollsLimit(3, Duration.ofMinutes(1));
    static final RateLimitSettings.Limit ENOUGH = new RateLimitSettings.RoomPollsLimit(1_000, Duration.ofMinutes(1));
    static final Instant KEYS_EXPIRE = Instant.now().plusSeconds(600);
    static final AtomicLong TICKETS = new AtomicLong();

    static RedisServer redis;
    static RedissonClient redisson;
    static RoomStore store;

    @BeforeAll
    static void ownRedis() throws Exception {
        redis = RedisServer.start(null);
        redisson = redis.client();
        store = new RoomStore(redisson);
    }

    @AfterAll
    static void stop() throws Exception {
        redisson.shutdown();
        redis.close();
    }

    @Test
    void aShoppersPollsPastTheLimitAreToldSoWithTheWindowsTimeLeftAndReadNothing() {
        long voucher = 101;
        roomOf(voucher, 2, 1, 2);
        for (int i = 0; i < 3; i++) {
            assertThat(limited(voucher, 1).state()).as("poll %d", i + 1).isIn(PlaceState.ADMITTED, PlaceState.WAITING);
        }
        RoomStore.Polled refused = limited(voucher, 1);
        assertThat(refused.state()).isEqualTo(PlaceState.POLLED_TOO_OFTEN);
        assertThat(refused.millisLeft()).isBetween(1L, 60_000L);
        assertThat(limited(voucher, 2).state()).as("another shopper's own count").isNotEqualTo(PlaceState.POLLED_TOO_OFTEN);
        assertThat(limited(voucher + 1, 1).state()).as("the same shopper in another room").isEqualTo(PlaceState.NOT_IN_ROOM);

        redisson.getKeys().delete(VoucherKeys.roomPolls(voucher, 1));
        assertThat(limited(voucher, 1).state()).as("a new window").isNotEqualTo(PlaceState.POLLED_TOO_OFTEN);
    }

    @Test
    void thePublicStateIsNeverLimitedAndLetsTheNextBatchInWhenDue() {
        long voucher = 202;
        roomOf(voucher, 5, 10, 0);

        RoomStore.Polled first = null;
        for (int i = 0; i < 10; i++) {
            first = store.serving(voucher, true, pace(2), KEYS_EXPIRE);
        }
        assertThat(first.state()).isEqualTo(PlaceState.WAITING);
        assertThat(first.rank()).isEqualTo(-1);
        assertThat(first.admitted()).as("one batch, the next due in a minute").isEqualTo(2);
        assertThat(first.size()).isEqualTo(10);
        assertThat(first.stock()).isEqualTo(5);
        assertThat(first.held()).as("the two admissions hold a unit each").isEqualTo(2);
        assertThat(redisson.getKeys().countExists(VoucherKeys.roomPolls(voucher, 0))).isZero();

        redisson.getBucket(VoucherKeys.stock(voucher), StringCodec.INSTANCE).set("0");
        assertThat(store.serving(voucher, true, pace(2), KEYS_EXPIRE).state())
                .isEqualTo(PlaceState.SOLD_OUT);
    }

    @Test
    void nothingTellsAPlaceBeforeTheCloseAndTheEntrantsAreFinalFromIt() {
        long voucher = 303;
        redisson.getBucket(VoucherKeys.stock(voucher), StringCodec.INSTANCE).set("5");
        for (long shopper = 11; shopper <= 13; shopper++) {
            assertThat(store.join(voucher, shopper, true, null, Duration.ZERO, KEYS_EXPIRE).outcome())
                    .isEqualTo(RoomStore.JoinOutcome.IN_THE_DRAW);
        }
        assertThat(redisson.getScoredSortedSet(VoucherKeys.roomPlaces(voucher), StringCodec.INSTANCE).readAll())
                .as("every entrant alike until the close").hasSize(3);
        assertThat(redisson.getScoredSortedSet(VoucherKeys.roomPlaces(voucher), StringCodec.INSTANCE).count(0, true, 0,
                true)).isEqualTo(3);
        assertThat(store.entrants(voucher, false, KEYS_EXPIRE)).as("the window open").isNull();

        RoomStore.Entrants closed = store.entrants(voucher, true, KEYS_EXPIRE);
        assertThat(closed.drawn()).isFalse();
        assertThat(closed.shopperIds()).containsExactlyInAnyOrder("11", "12", "13");
        assertThat(poll(voucher, 11).state()).as("closed, not numbered yet").isEqualTo(PlaceState.IN_THE_DRAW);
        // An instance whose clock runs behind still takes it for open: the close stands, it queues behind.
        assertThat(store.join(voucher, 14, true, null, Duration.ZERO, KEYS_EXPIRE).outcome())
                .isEqualTo(RoomStore.JoinOutcome.BEHIND_THE_DRAW);

        assertThat(store.number(voucher, Map.of("11", 7L, "12", 5L), KEYS_EXPIRE)).as("an entrant left out").isFalse();
        assertThat(store.number(voucher, Map.of("11", 7L, "12", 5L, "13", 9L), KEYS_EXPIRE)).isTrue();
        assertThat(store.number(voucher, Map.of("11", 1L, "12", 2L, "13", 3L), KEYS_EXPIRE)).as("drawn once").isTrue();
        RoomStore.Entrants drawn = store.entrants(voucher, true, KEYS_EXPIRE);
        assertThat(drawn.drawn()).isTrue();
        assertThat(drawn.shopperIds()).as("by the first numbers written").containsExactly("12", "11", "13");
        assertThat(poll(voucher, 14).rank()).as("behind the draw").isEqualTo(3);
    }

    @Test
    void anAdmissionNobodyLooksAtGoesToTheNextPlaceAfterThePresenceWindowAndOneLookedAtIsHeldItsLifetime() {
        long voucher = 404;
        roomOf(voucher, 2, 4, 0);
        RoomStore.Pace pace = new RoomStore.Pace(2, Duration.ofMillis(100), Duration.ofMillis(400), Duration.ofMinutes(1));
        assertThat(store.serving(voucher, true, pace, KEYS_EXPIRE).admitted()).isEqualTo(2);
        RoomStore.Polled looked = poll(voucher, 1, pace);
        assertThat(looked.state()).isEqualTo(PlaceState.ADMITTED);

        // Shopper 2 never looks: within the presence window its unit is released to place 3, not after a minute.
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(50))
                .until(() -> store.serving(voucher, true, pace, KEYS_EXPIRE).admitted() == 3);
        assertThat(poll(voucher, 2, pace).state()).isEqualTo(PlaceState.ADMISSION_LAPSED);
        RoomStore.Polled stillHeld = poll(voucher, 1, pace);
        assertThat(stillHeld.state()).as("looked at in time: held its lifetime").isEqualTo(PlaceState.ADMITTED);
        assertThat(stillHeld.ticket()).isEqualTo(looked.ticket());
        assertThat(poll(voucher, 3, pace).state()).isEqualTo(PlaceState.ADMITTED);
        assertThat(store.serving(voucher, true, pace, KEYS_EXPIRE).held()).as("shoppers 1 and 3").isEqualTo(2);
    }

    @Test
    void aLapsedShopperQueuesAgainBehindEveryoneAndNoOtherPlaceNorTheDrawMoves() {
        long voucher = 505;
        roomOf(voucher, 3, 4, 0);
        assertThat(store.join(voucher, 9, false, null, Duration.ZERO, KEYS_EXPIRE).rank()).as("a late arrival").isEqualTo(4);
        RoomStore.Pace pace = new RoomStore.Pace(1, Duration.ofMinutes(1), Duration.ofMillis(300), Duration.ofMinutes(1));
        store.serving(voucher, true, pace, KEYS_EXPIRE);
        assertThat(store.queueAgain(voucher, 1, KEYS_EXPIRE)).as("let in and held: keeps its place").isZero();
        // watched without looking, which would hold it
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(50))
                .until(() -> store.serving(voucher, true, pace, KEYS_EXPIRE).held() == 0);
        assertThat(poll(voucher, 1, pace).state()).isEqualTo(PlaceState.ADMISSION_LAPSED);
        assertThat(store.queueAgain(voucher, 2, KEYS_EXPIRE)).as("not let in yet: keeps its place").isEqualTo(1);
        java.util.List<String> drawn = store.entrants(voucher, true, KEYS_EXPIRE).shopperIds();

        assertThat(store.queueAgain(voucher, 1, KEYS_EXPIRE)).as("behind the late arrival").isEqualTo(5);
        assertThat(store.queueAgain(voucher, 1, KEYS_EXPIRE)).as("a second call changes nothing").isEqualTo(5);
        assertThat(poll(voucher, 1, pace).state()).isEqualTo(PlaceState.WAITING);
        for (long shopper : new long[] {2, 3, 4, 9}) {
            assertThat(poll(voucher, shopper, pace).rank()).as("shopper %d", shopper).isEqualTo(shopper == 9 ? 4 : shopper - 1);
        }
        assertThat(store.join(voucher, 10, false, null, Duration.ZERO, KEYS_EXPIRE).rank()).as("behind them").isEqualTo(6);
        assertThat(store.entrants(voucher, true, KEYS_EXPIRE).shopperIds()).as("the draw as published").isEqualTo(drawn);

        RoomStore.Pace everyone = new RoomStore.Pace(10, Duration.ofMinutes(1), Duration.ofMinutes(1), Duration.ofMinutes(1));
        redisson.getBucket(VoucherKeys.stock(voucher), StringCodec.INSTANCE).set("10");
        redisson.getBucket(VoucherKeys.roomNextBatch(voucher), StringCodec.INSTANCE).delete();
        assertThat(store.serving(voucher, true, everyone, KEYS_EXPIRE).admitted()).isEqualTo(7);
        RoomStore.Polled again = poll(voucher, 1, everyone);
        assertThat(again.state()).as("let in again from the new place").isEqualTo(PlaceState.ADMITTED);
        assertThat(again.rank()).isEqualTo(5);
        assertThat(store.serving(voucher, true, everyone, KEYS_EXPIRE).held()).as("1, 2, 3, 4, 9, 10: once each")
                .isEqualTo(6);
    }

    @Test
    void aSpentAdmissionIsUsedWhileItsOrderStandsAndGivenBackWhenItDoesNot() {
        long voucher = 606;
        String spent = boughtByTheFirstPlace(voucher, "queue", 71);
        assertThat(store.queueAgain(voucher, 1, KEYS_EXPIRE)).as("spent: not queued again").isZero();

        // The order is given up after its retries: its unit goes back, the shopper may buy again, and the fail script,
        // knowing the admission's lifetime, gives the admission back in the same step: the next batch cannot take the
        // unit for the second place.
        givenUp(voucher, 71, 1, "60000");
        redisson.getBucket(VoucherKeys.roomNextBatch(voucher), StringCodec.INSTANCE).delete();
        assertThat(poll(voucher, 3).state()).as("the unit is the first place's again").isEqualTo(PlaceState.WAITING);
        RoomStore.Polled givenBack = poll(voucher, 1);
        assertThat(givenBack.state()).isEqualTo(PlaceState.ADMITTED);
        assertThat(givenBack.ticket()).isNotEqualTo(spent);
        assertThat(givenBack.millisLeft()).isGreaterThan(50_000);
        assertThat(poll(voucher, 1).ticket()).as("given back once").isEqualTo(givenBack.ticket());
        assertThat(purchase(voucher, "queue", 1, 72, givenBack.ticket())).isEqualTo(0L);
        assertThat(poll(voucher, 1).state()).isEqualTo(PlaceState.ADMISSION_USED);
    }

    @Test
    void aShopperWhoseFailedOrdersUnitWentToTheNextPlaceQueuesAgainBehindEveryone() {
        long voucher = 608;
        boughtByTheFirstPlace(voucher, "queue", 91);
        // Given up by a stream that leaves the admission to the room; a batch lets the second place in on the unit first.
        givenUp(voucher, 91, 1, "");
        redisson.getBucket(VoucherKeys.roomNextBatch(voucher), StringCodec.INSTANCE).delete();
        assertThat(poll(voucher, 3).state()).isEqualTo(PlaceState.ADMITTED);
        RoomStore.Polled ranOut = poll(voucher, 1);
        assertThat(ranOut.state()).as("%s", ranOut).isEqualTo(PlaceState.ADMISSION_LAPSED);
        assertThat(ranOut.unitTaken()).as("to be queued again").isTrue();
        assertThat(store.queueAgain(voucher, 1, KEYS_EXPIRE)).isEqualTo(3);
        RoomStore.Polled first = poll(voucher, 1);
        assertThat(first.state()).as("%s", first).isEqualTo(PlaceState.WAITING);
        assertThat(first.rank()).as("behind the three places").isEqualTo(3);
        assertThat(first.queuedAgain()).isTrue();
        assertThat(store.serving(voucher, true, pace(1), KEYS_EXPIRE).held()).as("two units, shoppers 2 and 3")
                .isEqualTo(2);
    }

    @Test
    void aBuyerIsToldTheirAdmissionIsUsedAndIsNotQueuedAgainEvenWithoutItsRecord() {
        long voucher = 609;
        boughtByTheFirstPlace(voucher, "queue", 95);
        redisson.getKeys().delete(VoucherKeys.roomSpent(voucher));
        assertThat(poll(voucher, 1).state()).isEqualTo(PlaceState.ADMISSION_USED);
        assertThat(store.queueAgain(voucher, 1, KEYS_EXPIRE)).isZero();
    }

    /** seckill-fail.lua gives the order up: {@code lifetime} the admission's in ms, '' to leave it to the room. */
    private static void givenUp(long voucher, long order, long shopper, String lifetime) {
        assertThat(new dev.seckill.platform.LuaScript(redisson, "sale/stream/seckill-fail.lua").evalLong(List.of(
                VoucherKeys.stock(voucher), VoucherKeys.buyers(voucher), VoucherKeys.orders(voucher),
                VoucherKeys.pending(voucher), VoucherKeys.failed(voucher), VoucherKeys.deadLetters(voucher),
                VoucherKeys.attempts(voucher), VoucherKeys.roomSpent(voucher), VoucherKeys.roomOpenAdmissions(voucher),
                VoucherKeys.roomAdmittedAt(voucher)), "orders", "0-1", Long.toString(order), Long.toString(shopper),
                "test", lifetime)).as("compensated").isEqualTo(1);
    }

    @Test
    void aSyncOrderInFlightHoldsItsAdmissionAndOneRolledBackGivesItBack() {
        long voucher = 607;
        boughtByTheFirstPlace(voucher, "hold", 81); // its transaction still running
        new dev.seckill.platform.LuaScript(redisson, "stock-return.lua").evalLong(List.of(VoucherKeys.stock(voucher),
                VoucherKeys.syncUnits(voucher), VoucherKeys.syncUnitsReturned(voucher)), "81");
        assertThat(poll(voucher, 1).state()).as("rolled back").isEqualTo(PlaceState.ADMITTED);
    }

    @Test
    void aFreshSaleLetsTheDrawnPlacesInAgainWithNeitherTheirEarlierTicketsNorThePlacesQueuedAgain() {
        long voucher = 708;
        roomOf(voucher, 3, 3, 0);
        RoomStore.Pace pace = new RoomStore.Pace(2, Duration.ofMinutes(1), Duration.ofMillis(300), Duration.ofMinutes(1));
        store.serving(voucher, true, pace, KEYS_EXPIRE);
        String earlier = poll(voucher, 2, pace).ticket();
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(50))
                .until(() -> store.serving(voucher, true, pace, KEYS_EXPIRE).held() == 1);
        assertThat(poll(voucher, 1, pace).state()).isEqualTo(PlaceState.ADMISSION_LAPSED);
        assertThat(store.queueAgain(voucher, 1, KEYS_EXPIRE)).isEqualTo(3);

        store.restartAdmissions(voucher);
        assertThat(poll(voucher, 1, pace).rank()).as("back at the place drawn").isZero();
        store.serving(voucher, true, pace, KEYS_EXPIRE);
        RoomStore.Polled again = poll(voucher, 2, pace);
        assertThat(again.state()).isEqualTo(PlaceState.ADMITTED);
        assertThat(again.ticket()).as("a ticket of this admission").isNotEqualTo(earlier);
        // The place shopper 1 was queued again at stays, so that no place behind it moves, and lets nobody in.
        RoomStore.Pace everyone = new RoomStore.Pace(10, Duration.ofMinutes(1), Duration.ofMinutes(1), Duration.ofMinutes(1));
        redisson.getBucket(VoucherKeys.roomNextBatch(voucher), StringCodec.INSTANCE).delete();
        redisson.getBucket(VoucherKeys.stock(voucher), StringCodec.INSTANCE).set("10");
        RoomStore.Polled all = store.serving(voucher, true, everyone, KEYS_EXPIRE);
        assertThat(all.size()).isEqualTo(4);
        assertThat(all.admitted()).isEqualTo(4);
        assertThat(all.held()).as("three shoppers, one admission each").isEqualTo(3);
    }

    @Test
    void anAdminsPauseRateAndCloseHoldFromTheNextPoll() {
        long voucher = 809;
        roomOf(voucher, 20, 12, 0);
        RoomStore.Pace pace = new RoomStore.Pace(1, Duration.ofMillis(100), Duration.ofMinutes(1), Duration.ofMinutes(1));
        assertThat(store.control(voucher, true, null, null, KEYS_EXPIRE)).isEqualTo(new RoomStore.Control(true, false, 0));
        await().during(Duration.ofMillis(600)).atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(50))
                .until(() -> store.serving(voucher, true, pace, KEYS_EXPIRE), polled -> polled.admitted() == 0
                        && polled.paused());

        // Resumed at 30 a second: batches of three every 100 ms instead of the voucher's one.
        store.control(voucher, false, 30, null, KEYS_EXPIRE);
        RoomStore.Polled resumed = store.serving(voucher, true, pace, KEYS_EXPIRE);
        assertThat(resumed.admitted()).isEqualTo(3);
        assertThat(resumed.rate()).isEqualTo(30);
        assertThat(resumed.paused()).isFalse();
        assertThat(poll(voucher, 1, pace).state()).isEqualTo(PlaceState.ADMITTED);

        assertThat(store.control(voucher, null, null, true, KEYS_EXPIRE).closed()).isTrue();
        assertThat(store.serving(voucher, true, pace, KEYS_EXPIRE).state()).isEqualTo(PlaceState.ROOM_CLOSED);
        assertThat(poll(voucher, 12, pace).state()).as("waiting").isEqualTo(PlaceState.ROOM_CLOSED);
        assertThat(poll(voucher, 1, pace).state()).as("let in before: still good").isEqualTo(PlaceState.ADMITTED);
        assertThat(store.join(voucher, 99, false, null, Duration.ZERO, KEYS_EXPIRE).outcome())
                .isEqualTo(RoomStore.JoinOutcome.CLOSED);
        assertThat(store.join(voucher, 12, false, null, Duration.ZERO, KEYS_EXPIRE).outcome())
                .as("in the room: its place, which says closed").isEqualTo(RoomStore.JoinOutcome.ALREADY_IN);
        assertThat(store.serving(voucher, true, pace, KEYS_EXPIRE).admitted()).as("nobody more let in")
                .isEqualTo(resumed.admitted());
        redisson.getMap(VoucherKeys.roomOpenAdmissions(voucher)).delete();
        redisson.getKeys().delete(VoucherKeys.ticket(voucher, 2), VoucherKeys.ticket(voucher, 3));
        assertThat(store.queueAgain(voucher, 2, KEYS_EXPIRE)).as("lapsed, in a closed room").isEqualTo(-2);
    }

    /**
     * A room of three places and two units, the first two let in (the second never looks, holding a unit), the first
     * buying with its admission (purchase.lua, {@code keeping} 'queue' or 'hold'), which the room then says is used:
     * the ticket spent.
     */
    private static String boughtByTheFirstPlace(long voucher, String keeping, long order) {
        roomOf(voucher, 2, 3, 2);
        String ticket = poll(voucher, 1).ticket();
        assertThat(purchase(voucher, keeping, 1, order, ticket)).isEqualTo(0L);
        assertThat(poll(voucher, 1).state()).isEqualTo(PlaceState.ADMISSION_USED);
        return ticket;
    }

    /** purchase.lua for one order with the room's admission as its ticket: its answer. */
    private static Object purchase(long voucher, String keeping, long shopper, long order, String ticket) {
        List<Object> answer = new dev.seckill.platform.LuaScript(redisson, "sale/buying/purchase.lua").evalList(List.of(
                VoucherKeys.stock(voucher), VoucherKeys.buyers(voucher), VoucherKeys.shopperOrders(voucher),
                VoucherKeys.resetFence(voucher), keeping.equals("queue") ? VoucherKeys.pending(voucher)
                        : VoucherKeys.syncUnits(voucher), VoucherKeys.orders(voucher), VoucherKeys.sale(voucher),
                VoucherKeys.ticket(voucher, shopper), VoucherKeys.roomOpenAdmissions(voucher),
                VoucherKeys.roomSpent(voucher)), keeping, "room", Long.toString(shopper), Long.toString(order),
                Long.toString(System.currentTimeMillis()), ticket);
        return answer.get(0);
    }

    /**
     * A room of {@code shoppers} (ids 1..n, numbered by their ids) with {@code stock} units, drawn; {@code letIn}
     * places admitted already.
     */
    private static void roomOf(long voucher, int stock, int shoppers, int letIn) {
        redisson.getBucket(VoucherKeys.stock(voucher), StringCodec.INSTANCE).set(Integer.toString(stock));
        for (long shopper = 1; shopper <= shoppers; shopper++) {
            store.join(voucher, shopper, true, null, Duration.ZERO, KEYS_EXPIRE);
        }
        RoomStore.Entrants entrants = store.entrants(voucher, true, KEYS_EXPIRE);
        Map<String, Long> numbers = new HashMap<>();
        entrants.shopperIds().forEach(shopper -> numbers.put(shopper, Long.parseLong(shopper)));
        assertThat(store.number(voucher, numbers, KEYS_EXPIRE)).isTrue();
        if (letIn > 0) {
            store.serving(voucher, true, pace(letIn), KEYS_EXPIRE);
        }
    }

    private static RoomStore.Polled limited(long voucher, long shopper) {
        return store.poll(voucher, shopper, true, pace(1), "ticket-" + shopper, KEYS_EXPIRE, THREE_A_MINUTE);
    }

    private static RoomStore.Polled poll(long voucher, long shopper) {
        return poll(voucher, shopper, pace(1));
    }

    private static RoomStore.Polled poll(long voucher, long shopper, RoomStore.Pace pace) {
        return store.poll(voucher, shopper, true, pace, "ticket-" + shopper + "-" + TICKETS.incrementAndGet(),
                KEYS_EXPIRE, ENOUGH);
    }

    /** A batch of {@code batchSize} a minute, held a minute whether its shopper looks or not. */
    private static RoomStore.Pace pace(int batchSize) {
        return new RoomStore.Pace(batchSize, Duration.ofMinutes(1), Duration.ofMinutes(1), Duration.ofMinutes(1));
    }
}
