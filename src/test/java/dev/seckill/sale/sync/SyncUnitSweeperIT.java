package dev.seckill.sale.sync;

import java.time.Clock;
import java.time.Duration;
import java.util.List;

import dev.seckill.id.IdGenerator;
import dev.seckill.order.SyncOrderCreation;
import dev.seckill.sale.buying.PurchaseDecision.Outcome;
import dev.seckill.sale.buying.PurchaseDecision;
import dev.seckill.salestate.StockCache;
import dev.seckill.salestate.SyncUnits.Unit;
import dev.seckill.salestate.SyncUnits;
import dev.seckill.salestate.VoucherKeys;
import dev.seckill.support.IntegrationTest;
import dev.seckill.support.Tokens;
import org.junit.jupiter.api.Test;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.TestPropertySource;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A sync request that dies at each point between taking its unit and settling it, played step by step with
 * the real scripts, the real order transaction and the real sweeper (a 3 s unit timeout here): the sweeper
 * heals each case, a request that outlives the timeout gives nothing back twice and takes back a unit it
 * sold, and stock resets and rebuilds count the units in flight.
 */
@TestPropertySource(properties = {"seckill.mode=sync", "seckill.web.instance-id=sync-sweeper-it", "seckill.sync-units.unit-timeout=3s",
        "seckill.sync-units.sweep-every=200ms"})
class SyncUnitSweeperIT extends IntegrationTest {

    static final long TIMEOUT_MILLIS = 3_000;
    /** The timeout, a sweep, and the voucher lock of a loaded machine. */
    static final Duration HEALED_WITHIN = Duration.ofSeconds(30);
    /** A unit "taken a minute from now" is left alone by this sweeper (3 s timeout) while a test plays its request. */
    static final long LATER = 60_000;

    @Autowired
    StockCache stock;

    @Autowired
    PurchaseDecision purchases;

    @Autowired
    SyncUnits units;

    @Autowired
    SyncOrderCreation writer;

    @Autowired
    IdGenerator ids;

    @Autowired
    RedissonClient redisson;

    @Autowired
    JdbcTemplate db;

    @Autowired
    Clock clock;

    @Test
    void aUnitWhoseRequestDiedBeforeCommittingGoesBackToStockAfterTheTimeout() {
        long voucherId = api.createVoucher(5);
        String token = api.mintShoppers(1).get(0);
        long shopper = Tokens.shopperId(token);
        long orderId = ids.next();
        long takenAt = clock.millis();
        assertThat(take(voucherId, shopper, orderId, takenAt).outcome()).isEqualTo(Outcome.ACCEPTED);
        // ... and the request dies here.
        assertThat(redisStock(voucherId)).isEqualTo(4);
        JsonNode held = api.audit(voucherId);
        assertThat(held.path("syncUnitsInFlight").asLong()).isEqualTo(1);
        assertThat(held.path("consistent").asBoolean()).as("a unit in flight is accounted for: " + held).isTrue();

        awaitNoUnitInFlight(voucherId);

        assertThat(redisStock(voucherId)).isEqualTo(mySqlStock(voucherId)).isEqualTo(5);
        List<Unit> returned = units.read(voucherId).returned();
        assertThat(returned).extracting(Unit::orderId).containsExactly(orderId);
        assertThat(returned.get(0).atMillis() - takenAt).as("not returned before the timeout")
                .isGreaterThanOrEqualTo(TIMEOUT_MILLIS);
        expectConsistent(voucherId);
        // The shopper lost nothing: they buy, and the unit is sold once.
        api.seckill(voucherId, token).expectStatus(201);
        assertThat(redisStock(voucherId)).isEqualTo(mySqlStock(voucherId)).isEqualTo(4);
        expectConsistent(voucherId);
    }

    @Test
    void aUnitWhoseRequestDiedAfterCommittingStaysSoldAndItsShopperBecomesABuyer() {
        long voucherId = api.createVoucher(5);
        String token = api.mintShoppers(1).get(0);
        long shopper = Tokens.shopperId(token);
        long orderId = ids.next();
        assertThat(take(voucherId, shopper, orderId, clock.millis()).outcome()).isEqualTo(Outcome.ACCEPTED);
        writer.create(orderId, shopper, voucherId);
        // ... and the request dies before adding its shopper to the buyers.
        // Not settled yet, and counted once: MySQL's stock has it, so Redis's unit in flight is not counted again.
        JsonNode unsettled = api.audit(voucherId);
        assertThat(unsettled.path("syncUnitsInFlight").asLong()).as("a committed unit not settled yet").isOne();
        assertThat(unsettled.path("consistent").asBoolean()).as(unsettled.toString()).isTrue();

        awaitNoUnitInFlight(voucherId);

        assertThat(redisStock(voucherId)).isEqualTo(mySqlStock(voucherId)).isEqualTo(4);
        assertThat(units.read(voucherId).returned()).as("a sold unit is never returned").isEmpty();
        assertThat(redisson.getSet(VoucherKeys.buyers(voucherId), StringCodec.INSTANCE).contains(Long.toString(shopper)))
                .isTrue();
        assertThat(redisson.getMap(VoucherKeys.shopperOrders(voucherId), StringCodec.INSTANCE).get(Long.toString(shopper)))
                .isEqualTo(Long.toString(orderId));
        expectConsistent(voucherId);
        // Refused from the buyer set, naming the order, without holding a unit.
        assertThat(api.seckill(voucherId, token).expectProblem(409, "already-ordered").json().path("orderId").asString())
                .isEqualTo(Long.toString(orderId));
        assertThat(redisStock(voucherId)).isEqualTo(4);
    }

    @Test
    void aRequestThatOutlivesTheTimeoutAndFailsGivesNothingBackTwice() {
        long voucherId = api.createVoucher(5);
        long shopper = Tokens.shopperId(api.mintShoppers(1).get(0));
        long orderId = ids.next();
        assertThat(take(voucherId, shopper, orderId, clock.millis()).outcome()).isEqualTo(Outcome.ACCEPTED);
        awaitReturned(voucherId, orderId);
        assertThat(redisStock(voucherId)).isEqualTo(5);

        // The request was alive after all (a long pause): its order fails and it gives the unit back.
        stock.giveBack(voucherId, orderId);
        stock.giveBack(voucherId, orderId);
        assertThat(units.returnUnit(voucherId, orderId, clock.millis())).isEqualTo(SyncUnits.Returned.NO_RECORD);

        assertThat(redisStock(voucherId)).isEqualTo(mySqlStock(voucherId)).isEqualTo(5);
        assertThat(units.read(voucherId).isEmpty()).isTrue();
        expectConsistent(voucherId);
    }

    @Test
    void aRequestThatOutlivesTheTimeoutAndCommitsTakesItsReturnedUnitAgain() {
        long voucherId = api.createVoucher(5);
        long shopper = Tokens.shopperId(api.mintShoppers(1).get(0));
        long orderId = ids.next();
        assertThat(take(voucherId, shopper, orderId, clock.millis()).outcome()).isEqualTo(Outcome.ACCEPTED);
        awaitReturned(voucherId, orderId);

        writer.create(orderId, shopper, voucherId);
        stock.addBuyer(voucherId, shopper, orderId);
        stock.addBuyer(voucherId, shopper, orderId); // sent again after a lost reply: changes nothing

        assertThat(redisStock(voucherId)).isEqualTo(mySqlStock(voucherId)).isEqualTo(4);
        assertThat(units.read(voucherId).isEmpty()).isTrue();
        expectConsistent(voucherId);
    }

    @Test
    void aTakeSentTwiceTakesOneUnitAndAGiveBackSentTwiceReturnsOne() {
        long voucherId = api.createVoucher(1);
        long shopper = Tokens.shopperId(api.mintShoppers(1).get(0));
        long orderId = ids.next();
        long takenAt = clock.millis() + LATER;
        assertThat(take(voucherId, shopper, orderId, takenAt).outcome()).isEqualTo(Outcome.ACCEPTED);
        // The first run took the last unit; the second must not answer sold-out.
        assertThat(take(voucherId, shopper, orderId, takenAt).outcome()).isEqualTo(Outcome.ACCEPTED);
        assertThat(redisStock(voucherId)).isZero();

        stock.giveBack(voucherId, orderId);
        stock.giveBack(voucherId, orderId);
        assertThat(redisStock(voucherId)).isEqualTo(1);
        expectConsistent(voucherId);
    }

    @Test
    void aStockResetCountsTheUnitsInFlightAndSettlesTheCommittedOnes() {
        long voucherId = api.createVoucher(10);
        List<String> tokens = api.mintShoppers(2);
        long inFlight = Tokens.shopperId(tokens.get(0));
        long committed = Tokens.shopperId(tokens.get(1));
        long inFlightOrder = ids.next();
        long committedOrder = ids.next();
        assertThat(take(voucherId, inFlight, inFlightOrder, clock.millis() + LATER).outcome()).isEqualTo(Outcome.ACCEPTED);
        assertThat(take(voucherId, committed, committedOrder, clock.millis() + LATER).outcome()).isEqualTo(Outcome.ACCEPTED);
        writer.create(committedOrder, committed, voucherId); // its request not settled yet

        api.asAdmin("PUT", "/admin/vouchers/" + voucherId + "/stock", "{\"stock\":20}").expectStatus(200);

        assertThat(mySqlStock(voucherId)).isEqualTo(20);
        assertThat(redisStock(voucherId)).as("less the one unit still in flight").isEqualTo(19);
        assertThat(units.read(voucherId).inFlight()).extracting(Unit::orderId).containsExactly(inFlightOrder);
        expectConsistent(voucherId);

        // The request in flight commits against the new stock.
        writer.create(inFlightOrder, inFlight, voucherId);
        stock.addBuyer(voucherId, inFlight, inFlightOrder);
        stock.addBuyer(voucherId, committed, committedOrder); // the other one, late: changes nothing
        assertThat(redisStock(voucherId)).isEqualTo(mySqlStock(voucherId)).isEqualTo(19);
        expectConsistent(voucherId);
    }

    @Test
    void aRebuildCountsTheUnitsInFlight() {
        long voucherId = api.createVoucher(10);
        long shopper = Tokens.shopperId(api.mintShoppers(1).get(0));
        long orderId = ids.next();
        assertThat(take(voucherId, shopper, orderId, clock.millis() + LATER).outcome()).isEqualTo(Outcome.ACCEPTED);

        api.asAdmin("POST", "/admin/vouchers/" + voucherId + "/reconcile", null).expectStatus(200);
        assertThat(redisStock(voucherId)).isEqualTo(9);
        expectConsistent(voucherId);

        stock.giveBack(voucherId, orderId);
        assertThat(redisStock(voucherId)).isEqualTo(mySqlStock(voucherId)).isEqualTo(10);
        expectConsistent(voucherId);
    }

    private void awaitNoUnitInFlight(long voucherId) {
        await().atMost(HEALED_WITHIN).pollInterval(Duration.ofMillis(100))
                .until(() -> units.read(voucherId).inFlight().isEmpty());
    }

    private void awaitReturned(long voucherId, long orderId) {
        await().atMost(HEALED_WITHIN).pollInterval(Duration.ofMillis(100))
                .until(() -> units.read(voucherId).returned().stream().anyMatch(unit -> unit.orderId() == orderId));
    }

    private void expectConsistent(long voucherId) {
        JsonNode audit = api.audit(voucherId);
        assertThat(audit.path("consistent").asBoolean()).as(audit.toString()).isTrue();
    }

    private long redisStock(long voucherId) {
        return stock.read(voucherId).orElseThrow();
    }

    private long mySqlStock(long voucherId) {
        return db.queryForObject("SELECT stock FROM seckill_voucher WHERE voucher_id = ?", Long.class, voucherId);
    }

    /** A unit taken as the sync path takes it: held under the order, the voucher known to the sweepers. */
    private PurchaseDecision.Decision take(long voucherId, long shopperId, long orderId, long takenAtMillis) {
        units.registerOnce(voucherId);
        return purchases.decide(voucherId, PurchaseDecision.Keeping.HOLD,
                new PurchaseDecision.Order(shopperId, orderId, takenAtMillis));
    }
}
