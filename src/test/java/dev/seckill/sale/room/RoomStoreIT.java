package dev.seckill.sale.room;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;

import dev.seckill.ratelimit.RateLimitSettings;
import dev.seckill.salestate.VoucherKeys;
import dev.seckill.support.RedisServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The room's place script on a Redis of its own: a shopper's poll counts their limit in the same call, and the room's
 * public state, which no shopper's limit holds, lets batches in as a shopper's poll does.
 */
class RoomStoreIT {

    static final RateLimitSettings.Limit THREE_A_MINUTE = new RateLimitSettings.RoomPollsLimit(3, Duration.ofMinutes(1));
    static final Instant KEYS_EXPIRE = Instant.now().plusSeconds(600);

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
            assertThat(poll(voucher, 1).state()).as("poll %d", i + 1).isIn(PlaceState.ADMITTED, PlaceState.WAITING);
        }
        RoomStore.Polled refused = poll(voucher, 1);
        assertThat(refused.state()).isEqualTo(PlaceState.POLLED_TOO_OFTEN);
        assertThat(refused.millisLeft()).isBetween(1L, 60_000L);
        assertThat(poll(voucher, 2).state()).as("another shopper's own count").isNotEqualTo(PlaceState.POLLED_TOO_OFTEN);
        assertThat(poll(voucher + 1, 1).state()).as("the same shopper in another room").isEqualTo(PlaceState.NOT_IN_ROOM);

        redisson.getKeys().delete(VoucherKeys.roomPolls(voucher, 1));
        assertThat(poll(voucher, 1).state()).as("a new window").isNotEqualTo(PlaceState.POLLED_TOO_OFTEN);
    }

    @Test
    void thePublicStateIsNeverLimitedAndLetsTheNextBatchInWhenDue() {
        long voucher = 202;
        roomOf(voucher, 5, 10, 0);

        RoomStore.Polled first = null;
        for (int i = 0; i < 10; i++) {
            first = store.serving(voucher, true, 2, Duration.ofMinutes(1), Duration.ofMinutes(1), KEYS_EXPIRE);
        }
        assertThat(first.state()).isEqualTo(PlaceState.WAITING);
        assertThat(first.rank()).isEqualTo(-1);
        assertThat(first.admitted()).as("one batch, the next due in a minute").isEqualTo(2);
        assertThat(first.size()).isEqualTo(10);
        assertThat(first.stock()).isEqualTo(5);
        assertThat(first.held()).as("the two admissions hold a unit each").isEqualTo(2);
        assertThat(redisson.getKeys().countExists(VoucherKeys.roomPolls(voucher, 0))).isZero();

        redisson.getBucket(VoucherKeys.stock(voucher), StringCodec.INSTANCE).set("0");
        assertThat(store.serving(voucher, true, 2, Duration.ofMinutes(1), Duration.ofMinutes(1), KEYS_EXPIRE).state())
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
            store.serving(voucher, true, letIn, Duration.ofMinutes(1), Duration.ofMinutes(1), KEYS_EXPIRE);
        }
    }

    private static RoomStore.Polled poll(long voucher, long shopper) {
        return store.poll(voucher, shopper, true, 1, Duration.ofMinutes(1), Duration.ofMinutes(1), "ticket-" + shopper,
                KEYS_EXPIRE, THREE_A_MINUTE);
    }
}
