package dev.seckill.sale.buying;

import dev.seckill.sale.ticket.TicketStore;

import dev.seckill.salestate.VoucherKeys;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.seckill.sale.buying.PurchaseDecision.Decision;
import dev.seckill.sale.buying.PurchaseDecision.Keeping;
import dev.seckill.sale.buying.PurchaseDecision.Order;
import dev.seckill.sale.buying.PurchaseDecision.Outcome;
import dev.seckill.support.RedisServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.redisson.api.RedissonClient;
import org.redisson.api.stream.StreamMessageId;
import org.redisson.client.codec.StringCodec;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * purchase.lua on a Redis of its own, once per way of keeping an order: the same situation gets the same
 * answer whether the order is queued (async) or held (sync). Each test builds the situation in Redis, as the
 * rest of the product leaves it, and asks.
 */
class PurchaseDecisionIT {

    private static RedisServer redis;
    private static RedissonClient redisson;
    private static PurchaseDecision purchases;
    private static long nextVoucher = 1;

    @BeforeAll
    static void ownRedis() throws Exception {
        redis = RedisServer.start(null);
        redisson = redis.client();
        purchases = new PurchaseDecision(redisson);
    }

    @AfterAll
    static void stop() throws Exception {
        redisson.shutdown();
        redis.close();
    }

    @ParameterizedTest
    @EnumSource(Keeping.class)
    void takesOneUnitPerShopperUntilSoldOut(Keeping keeping) {
        long voucher = voucherWithStock(2);

        assertThat(decide(voucher, keeping, 1, 101)).isEqualTo(Decision.of(Outcome.ACCEPTED));
        assertThat(decide(voucher, keeping, 2, 102)).isEqualTo(Decision.of(Outcome.ACCEPTED));
        assertThat(decide(voucher, keeping, 3, 103)).isEqualTo(Decision.of(Outcome.SOLD_OUT));
        assertThat(stock(voucher)).isEqualTo("0");
        assertThat(inFlight(voucher, keeping)).containsExactlyInAnyOrder("101", "102");
    }

    @ParameterizedTest
    @EnumSource(Keeping.class)
    void aResentOrderIsAcceptedAgainWithoutASecondUnit(Keeping keeping) {
        long voucher = voucherWithStock(5);

        decide(voucher, keeping, 1, 101);
        assertThat(decide(voucher, keeping, 1, 101)).isEqualTo(Decision.of(Outcome.ACCEPTED));
        assertThat(stock(voucher)).isEqualTo("4");
    }

    @ParameterizedTest
    @EnumSource(Keeping.class)
    void aBuyerHearsWhichOrderIsTheirs(Keeping keeping) {
        long voucher = voucherWithStock(5);
        settle(voucher, keeping, 1, 101);

        assertThat(decide(voucher, keeping, 1, 201)).isEqualTo(new Decision(Outcome.ALREADY_BOUGHT, 101));
        assertThat(stock(voucher)).isEqualTo("4");
    }

    @ParameterizedTest
    @EnumSource(Keeping.class)
    void aBuyerTheIndexDoesNotNameIsStillRefused(Keeping keeping) {
        long voucher = voucherWithStock(5);
        redisson.getSet(VoucherKeys.buyers(voucher), StringCodec.INSTANCE).add("1");

        assertThat(decide(voucher, keeping, 1, 201)).isEqualTo(Decision.of(Outcome.ALREADY_BOUGHT));
    }

    @ParameterizedTest
    @EnumSource(Keeping.class)
    void soldOutIsAnsweredBeforeAlreadyBought(Keeping keeping) {
        long voucher = voucherWithStock(1);
        settle(voucher, keeping, 1, 101);

        assertThat(decide(voucher, keeping, 1, 201)).isEqualTo(Decision.of(Outcome.SOLD_OUT));
    }

    @ParameterizedTest
    @EnumSource(Keeping.class)
    void aFencedVoucherTakesNothing(Keeping keeping) {
        long voucher = voucherWithStock(5);
        redisson.getBucket(VoucherKeys.resetFence(voucher), StringCodec.INSTANCE).set("reset-1");

        assertThat(decide(voucher, keeping, 1, 101)).isEqualTo(Decision.of(Outcome.RESETTING));
        assertThat(stock(voucher)).isEqualTo("5");
    }

    @ParameterizedTest
    @EnumSource(Keeping.class)
    void aMissingCounterIsNotSoldOut(Keeping keeping) {
        long voucher = nextVoucher++;

        assertThat(decide(voucher, keeping, 1, 101)).isEqualTo(Decision.of(Outcome.NOT_CACHED));
        assertThat(redisson.getKeys().countExists(VoucherKeys.stock(voucher))).isZero();
    }

    @ParameterizedTest
    @EnumSource(Keeping.class)
    void ordersInOneCallAreDecidedOneAfterTheOther(Keeping keeping) {
        long voucher = voucherWithStock(2);

        List<Decision> decisions = purchases.decideAsync(voucher, keeping, List.of(new Order(1, 101, 0),
                new Order(1, 102, 0), new Order(2, 103, 0), new Order(3, 104, 0))).join();

        // The second order of shopper 1 is refused by the first only where the first made them a buyer at
        // once (queued); a held unit makes its shopper a buyer when the request commits, under its lock.
        Decision second = keeping == Keeping.QUEUE ? new Decision(Outcome.ALREADY_BOUGHT, 101) : Decision.of(Outcome.ACCEPTED);
        Decision third = keeping == Keeping.QUEUE ? Decision.of(Outcome.ACCEPTED) : Decision.of(Outcome.SOLD_OUT);
        assertThat(decisions).containsExactly(Decision.of(Outcome.ACCEPTED), second, third, Decision.of(Outcome.SOLD_OUT));
        assertThat(stock(voucher)).isEqualTo("0");
    }

    /**
     * The script writes what a call accepted once, at its end; a later order of the same call must still be
     * decided as if each earlier one had been a call of its own: repeated shoppers, a resent order, stock
     * running out in the middle.
     */
    @ParameterizedTest
    @EnumSource(Keeping.class)
    void oneCallForManyOrdersAnswersAndLeavesWhatOneCallPerOrderWould(Keeping keeping) {
        // Shoppers 1 + i² mod 31 come back after a few orders; every tenth order is an earlier one resent;
        // then new shoppers until the stock runs out.
        List<Order> orders = new ArrayList<>();
        for (int i = 0; i < 70; i++) {
            if (i % 10 == 9) {
                orders.add(orders.get(i - 5));
            } else {
                orders.add(new Order(i < 60 ? 1 + (i * i) % 31 : 100 + i, 1_000 + i, 5_000 + i));
            }
        }
        long together = voucherWithStock(20);
        long oneByOne = voucherWithStock(20);
        settle(together, keeping, 5, 900);
        settle(oneByOne, keeping, 5, 900);

        List<Decision> inOneCall = purchases.decideAsync(together, keeping, orders).join();
        List<Decision> eachAlone = orders.stream().map(order -> purchases.decide(oneByOne, keeping, order)).toList();

        assertThat(inOneCall).isEqualTo(eachAlone);
        assertThat(inOneCall).contains(Decision.of(Outcome.ACCEPTED), Decision.of(Outcome.SOLD_OUT), new Decision(Outcome.ALREADY_BOUGHT, 900));
        if (keeping == Keeping.QUEUE) {
            assertThat(inOneCall.stream().filter(d -> d.outcome() == Outcome.ALREADY_BOUGHT && d.existingOrderId() != 900))
                    .as("refused for an order of the same call").isNotEmpty();
        }
        assertThat(stock(together)).isEqualTo(stock(oneByOne)).isEqualTo("0");
        assertThat(inFlightEntries(together, keeping)).isEqualTo(inFlightEntries(oneByOne, keeping));
        assertThat(redisson.getSet(VoucherKeys.buyers(together), StringCodec.INSTANCE).readAll())
                .isEqualTo(redisson.getSet(VoucherKeys.buyers(oneByOne), StringCodec.INSTANCE).readAll());
        assertThat(redisson.getMap(VoucherKeys.shopperOrders(together), StringCodec.INSTANCE).readAllMap())
                .isEqualTo(redisson.getMap(VoucherKeys.shopperOrders(oneByOne), StringCodec.INSTANCE).readAllMap());
        assertThat(streamed(together)).isEqualTo(streamed(oneByOne));
    }

    @ParameterizedTest
    @EnumSource(Keeping.class)
    void onlyAQueuedOrderGoesOnTheStream(Keeping keeping) {
        long voucher = voucherWithStock(5);

        decide(voucher, keeping, 1, 101);

        long queued = redisson.getStream(VoucherKeys.orders(voucher), StringCodec.INSTANCE).size();
        assertThat(queued).isEqualTo(keeping == Keeping.QUEUE ? 1 : 0);
        assertThat(redisson.getSet(VoucherKeys.buyers(voucher), StringCodec.INSTANCE).contains("1"))
                .as("a held unit's shopper becomes a buyer only when the order commits")
                .isEqualTo(keeping == Keeping.QUEUE);
    }

    @ParameterizedTest
    @EnumSource(Keeping.class)
    void aTicketTakesOneUnitForItsShopperAndIsSpent(Keeping keeping) {
        long voucher = voucherWithStock(5);
        new TicketStore(redisson).issue(voucher, 1, "ticket-of-1", Duration.ofMinutes(1), null, Duration.ZERO);

        assertThat(ticketed(voucher, keeping, 2, 201, "ticket-of-1").outcome()).as("another shopper's ticket")
                .isEqualTo(Outcome.NO_TICKET);
        assertThat(ticketed(voucher, keeping, 1, 101, "")).as("none").isEqualTo(Decision.of(Outcome.NO_TICKET));
        assertThat(ticketed(voucher, keeping, 1, 102, "ticket-of-1")).isEqualTo(Decision.of(Outcome.ACCEPTED));
        // Held (sync) the shopper is no buyer until the order commits: only the spent ticket stops a second unit.
        assertThat(ticketed(voucher, keeping, 1, 103, "ticket-of-1").outcome())
                .isEqualTo(keeping == Keeping.HOLD ? Outcome.NO_TICKET : Outcome.ALREADY_BOUGHT);
        assertThat(ticketed(voucher, keeping, 1, 102, "ticket-of-1")).as("the same order sent again")
                .isEqualTo(Decision.of(Outcome.ACCEPTED));
        assertThat(redisson.getBucket(VoucherKeys.stock(voucher), StringCodec.INSTANCE).get()).isEqualTo("4");
        assertThat(redisson.getBucket(VoucherKeys.ticket(voucher, 1)).isExists()).isFalse();
    }

    @ParameterizedTest
    @EnumSource(Keeping.class)
    void aSoldOutVoucherAnswersSoldOutWithoutSpendingATicket(Keeping keeping) {
        long voucher = voucherWithStock(0);
        new TicketStore(redisson).issue(voucher, 1, "ticket-of-1", Duration.ofMinutes(1), null, Duration.ZERO);

        assertThat(ticketed(voucher, keeping, 1, 101, "ticket-of-1")).isEqualTo(Decision.of(Outcome.SOLD_OUT));
        assertThat(redisson.getBucket(VoucherKeys.ticket(voucher, 1), StringCodec.INSTANCE).get()).isEqualTo("ticket-of-1");
    }

    @Test
    void aSolvedChallengeIssuesOneTicket() {
        TicketStore store = new TicketStore(redisson);
        long voucher = nextVoucher++;

        assertThat(store.issue(voucher, 1, "a", Duration.ofMinutes(1), "solved-1", Duration.ofMinutes(5))).isTrue();
        assertThat(store.issue(voucher, 1, "b", Duration.ofMinutes(1), "solved-1", Duration.ofMinutes(5))).isFalse();
        assertThat(redisson.getBucket(VoucherKeys.ticket(voucher, 1), StringCodec.INSTANCE).get())
                .as("the refused issue wrote nothing").isEqualTo("a");
    }

    private static Decision ticketed(long voucher, Keeping keeping, long shopper, long order, String ticket) {
        return purchases.decide(voucher, keeping, PurchaseDecision.Tickets.ASKED, new Order(shopper, order, 1_000, ticket));
    }

    private static Decision decide(long voucher, Keeping keeping, long shopper, long order) {
        return purchases.decide(voucher, keeping, new Order(shopper, order, 1_000));
    }

    /** What each path leaves once the order is settled: a buyer, named in the shopper -> order index. */
    private static void settle(long voucher, Keeping keeping, long shopper, long order) {
        assertThat(decide(voucher, keeping, shopper, order).outcome()).isEqualTo(Outcome.ACCEPTED);
        redisson.getMap(PurchaseDecision.inFlight(voucher, keeping), StringCodec.INSTANCE).remove(Long.toString(order));
        redisson.getSet(VoucherKeys.buyers(voucher), StringCodec.INSTANCE).add(Long.toString(shopper));
        redisson.getMap(VoucherKeys.shopperOrders(voucher), StringCodec.INSTANCE).put(Long.toString(shopper),
                Long.toString(order));
    }

    private static long voucherWithStock(int stock) {
        long voucher = nextVoucher++;
        redisson.getBucket(VoucherKeys.stock(voucher), StringCodec.INSTANCE).set(Integer.toString(stock));
        return voucher;
    }

    private static String stock(long voucher) {
        return redisson.<String>getBucket(VoucherKeys.stock(voucher), StringCodec.INSTANCE).get();
    }

    private static Map<Object, Object> inFlightEntries(long voucher, Keeping keeping) {
        return redisson.getMap(PurchaseDecision.inFlight(voucher, keeping), StringCodec.INSTANCE).readAllMap();
    }

    /** The stream's messages without their ids, which differ between vouchers. */
    private static List<Map<String, String>> streamed(long voucher) {
        return redisson.<String, String>getStream(VoucherKeys.orders(voucher), StringCodec.INSTANCE)
                .range(StreamMessageId.MIN, StreamMessageId.MAX)
                .values().stream().toList();
    }

    private static Set<Object> inFlight(long voucher, Keeping keeping) {
        return redisson.getMap(PurchaseDecision.inFlight(voucher, keeping), StringCodec.INSTANCE).keySet();
    }
}
