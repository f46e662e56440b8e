package dev.seckill.salestate;

import dev.seckill.sale.buying.PurchaseDecision;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import javax.sql.DataSource;

import dev.seckill.support.Api;
import dev.seckill.support.IntegrationTest;
import dev.seckill.support.OrderWritesHolder;
import dev.seckill.support.Tokens;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.context.TestPropertySource;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A stock reset and the orders of the same voucher cannot interleave, against the real Redis and MySQL:
 * the reset fences the voucher (only when nothing is pending) before it reads MySQL, every order is refused
 * as busy while the fence stands, and the script that writes the new counter lifts it. The same properties
 * as {@code AsyncPathIT}, so the two share one application context.
 */
@TestPropertySource(properties = {"seckill.mode=async", "seckill.web.instance-id=async-path-it",
        "seckill.stock.sold-out-recheck=1m"})
class ResetFenceIT extends IntegrationTest {

    @Autowired
    RedissonClient redisson;

    @Autowired
    DataSource dataSource;

    @Autowired
    StockCache stock;

    @Autowired
    PurchaseDecision purchases;

    @Autowired
    SyncUnits syncUnits;

    @Autowired
    SeckillLocks locks;

    /**
     * The reset is held up inside its MySQL transaction (the test holds the voucher's row lock), after its
     * pending check and before its counter write: exactly where an order used to slip in and have its unit
     * erased by the write. Now every order meanwhile is refused, and Redis = MySQL - pending afterwards.
     */
    @Test
    void ordersDuringAResetAreRefusedAsBusyAndNothingFallsBetweenItsCountAndItsWrite() throws Exception {
        long voucherId = api.createVoucher(10);
        List<String> tokens = api.mintShoppers(3);
        CompletableFuture<Api.Response> reset;
        try (Connection holder = dataSource.getConnection()) {
            holder.setAutoCommit(false);
            try (PreparedStatement lock = holder.prepareStatement(
                    "SELECT stock FROM seckill_voucher WHERE voucher_id = ? FOR UPDATE")) {
                lock.setLong(1, voucherId);
                lock.executeQuery().close();
            }
            reset = CompletableFuture.supplyAsync(() -> api.asAdmin("PUT", "/admin/vouchers/" + voucherId + "/stock",
                    "{\"stock\":20}"));
            Awaitility.await("the reset fences the voucher").atMost(Duration.ofSeconds(5))
                    .pollInterval(Duration.ofMillis(5)).until(() -> fence(voucherId).isExists());
            // The app's sessions give up a row lock wait after 3 s: all of this happens well within it.
            for (String token : tokens) {
                api.seckill(voucherId, token).expectProblem(503, "voucher-busy");
            }
            assertThat(take(voucherId, Tokens.shopperId(tokens.get(0)), 1L, System.currentTimeMillis()).outcome())
                    .as("the sync path's decision honours the fence too").isEqualTo(PurchaseDecision.Outcome.RESETTING);
            assertThat(stock.read(voucherId)).as("nothing taken").hasValue(10);
            assertThat(api.audit(voucherId).path("pendingOrders").asLong()).isZero();
            assertThat(fence(voucherId).remainTimeToLive()).as("the fence expires if its instance dies")
                    .isPositive().isLessThanOrEqualTo(Duration.ofSeconds(30).toMillis());
            holder.rollback();
        }
        reset.get(20, TimeUnit.SECONDS).expectStatus(200);
        assertThat(fence(voucherId).isExists()).as("lifted by the counter write").isFalse();
        assertThat(stock.read(voucherId)).hasValue(20);

        for (String token : tokens) {
            api.seckill(voucherId, token).expectStatus(202);
        }
        JsonNode audit = api.awaitNoPendingOrders(voucherId, Duration.ofSeconds(20));
        assertThat(audit.path("dbStock").asLong()).isEqualTo(17);
        assertThat(audit.path("redisStock").asLong()).isEqualTo(17);
        assertThat(audit.path("consistent").asBoolean()).as(audit.toString()).isTrue();
    }

    @Test
    void aResetRefusedForPendingOrdersLeavesNoFence() throws Exception {
        long voucherId = api.createVoucher(5);
        String token = api.mintShoppers(1).get(0);
        try (OrderWritesHolder held = new OrderWritesHolder(locks, voucherId)) {
            api.seckill(voucherId, token).expectStatus(202); // stays pending while the voucher's writes are held
            api.asAdmin("PUT", "/admin/vouchers/" + voucherId + "/stock", "{\"stock\":9}")
                    .expectProblem(409, "orders-pending");
            assertThat(fence(voucherId).isExists()).isFalse();
        }
        api.awaitNoPendingOrders(voucherId, Duration.ofSeconds(20));
        api.asAdmin("PUT", "/admin/vouchers/" + voucherId + "/stock", "{\"stock\":9}").expectStatus(200);
        assertThat(stock.read(voucherId)).hasValue(9);
    }

    /** What an instance that died mid-reset leaves behind: a fence that nobody lifts but its TTL. */
    @Test
    void aFenceLeftBehindRefusesOrdersAndResetsUntilItExpires() throws Exception {
        long voucherId = api.createVoucher(5);
        String token = api.mintShoppers(1).get(0);
        fence(voucherId).set("a-dead-instance's-reset", Duration.ofMillis(1_500));

        api.seckill(voucherId, token).expectProblem(503, "voucher-busy");
        api.asAdmin("PUT", "/admin/vouchers/" + voucherId + "/stock", "{\"stock\":9}").expectProblem(503, "voucher-busy");
        assertThat(fence(voucherId).get()).as("another reset's fence is not lifted").isEqualTo("a-dead-instance's-reset");

        Awaitility.await("orders are taken again once the fence expired").atMost(Duration.ofSeconds(10))
                .pollInterval(Duration.ofMillis(200)).until(() -> api.seckill(voucherId, token).status() == 202);
        api.awaitNoPendingOrders(voucherId, Duration.ofSeconds(20));
        api.asAdmin("PUT", "/admin/vouchers/" + voucherId + "/stock", "{\"stock\":9}").expectStatus(200);
    }

    /**
     * A reset slower than its fence: orders accepted after the fence expired are pending, not in the stock
     * MySQL was just given, and will each take a unit there. The counter write counts them, so Redis stays
     * MySQL's stock minus what is pending.
     */
    @Test
    void aResetThatOutlivedItsFenceCountsTheOrdersAcceptedMeanwhile() throws Exception {
        long voucherId = api.createVoucher(10);
        String token = api.mintShoppers(1).get(0);
        try (OrderWritesHolder held = new OrderWritesHolder(locks, voucherId);
                ResetFence fenced = stock.fence(voucherId)) {
            fence(voucherId).delete(); // expired
            api.seckill(voucherId, token).expectStatus(202);
            assertThat(fenced.write(20, false, 0)).as("the fence was no longer this reset's").isFalse();
            assertThat(stock.read(voucherId)).hasValue(19);
        }
    }

    private org.redisson.api.RBucket<String> fence(long voucherId) {
        return redisson.getBucket(VoucherKeys.resetFence(voucherId), StringCodec.INSTANCE);
    }

    /** A unit taken as the sync path takes it: held under the order, the voucher known to the sweepers. */
    private PurchaseDecision.Decision take(long voucherId, long shopperId, long orderId, long takenAtMillis) {
        syncUnits.registerOnce(voucherId);
        return purchases.decide(voucherId, PurchaseDecision.Keeping.HOLD,
                new PurchaseDecision.Order(shopperId, orderId, takenAtMillis));
    }
}
