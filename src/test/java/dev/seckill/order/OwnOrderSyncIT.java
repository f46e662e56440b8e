package dev.seckill.order;

import java.util.List;
import java.util.Map;

import dev.seckill.salestate.VoucherKeys;
import dev.seckill.support.Api.Response;
import dev.seckill.support.Tokens;
import org.junit.jupiter.api.Test;
import org.springframework.test.context.TestPropertySource;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A shopper whose 201 was lost finds their order, sync mode:
 * {@code GET /orders?voucherId}, the {@code orderId} of already-ordered whichever layer refuses, and
 * {@code Idempotency-Key} replays, also after a sell-out.
 */
// The sync path: the order is in MySQL when its 201 comes.
@TestPropertySource(properties = "seckill.mode=sync")
class OwnOrderSyncIT extends OwnOrderITSupport {

    @Test
    void anOrderIsFoundByVoucherNamedByAlreadyOrderedAndReplayed() {
        long voucherId = api.createVoucher(5);
        List<String> tokens = api.mintShoppers(2);
        String shopper = tokens.get(0);
        String other = tokens.get(1);
        byVoucher(voucherId, shopper).expectProblem(404, "order-not-found");

        Response first = api.seckill(voucherId, shopper).expectStatus(201);
        String orderId = orderIdOf(first);

        JsonNode own = ownOrder(voucherId, shopper);
        assertThat(own.path("orderId").asString()).isEqualTo(orderId);
        assertThat(own.path("voucherId").asLong()).isEqualTo(voucherId);
        assertThat(own.path("status").asString()).isEqualTo("AWAITING_PAYMENT");
        byVoucher(voucherId, other).expectProblem(404, "order-not-found");
        assertThat(shopperOrders(voucherId)).containsExactlyEntriesOf(
                Map.of(Long.toString(Tokens.shopperId(shopper)), orderId));

        expectAlreadyOrdered(api.seckill(voucherId, shopper), orderId);
        expectReplayOf(first, seckillWithKey(voucherId, shopper, "retry-1"), "AWAITING_PAYMENT");
        expectReplayOf(first, seckillWithKey(voucherId, shopper, "retry-1"), "AWAITING_PAYMENT");

        JsonNode audit = api.audit(voucherId);
        assertThat(audit.path("orders").asLong()).isEqualTo(1);
        assertThat(audit.path("dbStock").asLong()).isEqualTo(4);
        assertThat(audit.path("redisStock").asLong()).as("refusals and replays hold no unit").isEqualTo(4);
        assertThat(audit.path("consistent").asBoolean()).as(audit.toString()).isTrue();
    }

    @Test
    void alreadyOrderedFromMySqlNamesTheOrderToo() {
        long voucherId = api.createVoucher(5);
        String token = api.mintShoppers(1).get(0);
        Response first = api.seckill(voucherId, token).expectStatus(201);
        // Without the buyer set the Redis gate lets the repeat through; MySQL's check refuses it.
        redisson.getKeys().delete(VoucherKeys.buyers(voucherId), VoucherKeys.shopperOrders(voucherId));

        expectAlreadyOrdered(api.seckill(voucherId, token), orderIdOf(first));
        expectReplayOf(first, seckillWithKey(voucherId, token, "k"), "AWAITING_PAYMENT");

        JsonNode audit = api.audit(voucherId);
        assertThat(audit.path("orders").asLong()).isEqualTo(1);
        assertThat(audit.path("redisStock").asLong()).as("the units taken on the way were given back").isEqualTo(4);
        assertThat(audit.path("consistent").asBoolean()).as(audit.toString()).isTrue();
    }

    @Test
    void aRetryWithItsKeyAfterTheVoucherSoldOutGetsItsOrderBack() {
        long voucherId = api.createVoucher(1);
        List<String> tokens = api.mintShoppers(2);
        Response first = api.seckill(voucherId, tokens.get(0)).expectStatus(201);
        api.seckill(voucherId, tokens.get(1)).expectProblem(409, "sold-out");

        expectReplayOf(first, seckillWithKey(voucherId, tokens.get(0), "k"), "AWAITING_PAYMENT");
        assertThat(seckillWithKey(voucherId, tokens.get(1), "k").body()).contains("\"code\":\"sold-out\"");
        assertThat(api.audit(voucherId).path("orders").asLong()).isEqualTo(1);
    }

    @Test
    void aReplayAfterTheOrderWasCancelled() {
        aReplayAfterTheOrderWasCancelledSaysItIsCancelled();
    }

    @Test
    void badInputs() {
        badInputsAreRefusedAndChangeNothing();
    }
}
