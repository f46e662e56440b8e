package dev.seckill.sale.stream;

import dev.seckill.salestate.OrderStates;

import dev.seckill.salestate.QueuedOrder;

import dev.seckill.salestate.VoucherKeys;

import dev.seckill.sale.buying.PurchaseDecision;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import dev.seckill.sale.buying.PurchaseDecision.Keeping;
import dev.seckill.sale.buying.PurchaseDecision.Order;
import dev.seckill.support.RedisServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * seckill-ack.lua on a Redis of its own: one call acknowledges a whole batch, also one larger than the
 * slice the script hands to a single command, with a few commands in all (not a few per order), and touches
 * nothing of the orders it was not given.
 */
class OrderStreamAckIT {

    private static final String GROUP = "orders";

    private static RedisServer redis;
    private static RedissonClient redisson;
    private static PurchaseDecision purchases;
    private static OrderStream stream;

    @BeforeAll
    static void ownRedis() throws Exception {
        redis = RedisServer.start(null);
        redisson = redis.client();
        purchases = new PurchaseDecision(redisson);
        StreamSettings settings = new StreamSettings(GROUP, 1000, Duration.ofMillis(50), Duration.ofSeconds(30), 3, 1, "test");
        stream = new OrderStream(redisson, settings, new OrderStates(redisson));
    }

    @AfterAll
    static void stop() throws Exception {
        redisson.shutdown();
        redis.close();
    }

    @Test
    void oneCallAcknowledgesTwoAndAHalfThousandOrdersAndLeavesTheRestPending() throws Exception {
        long voucher = 7;
        redisson.getBucket(VoucherKeys.stock(voucher), StringCodec.INSTANCE).set("10000");
        stream.register(voucher);
        int written = 2_500;
        int left = 3;
        List<Order> orders = new ArrayList<>();
        for (int i = 1; i <= written + left; i++) {
            orders.add(new Order(i, 100_000 + i, 1_000));
        }
        purchases.decideAsync(voucher, Keeping.QUEUE, orders).join();
        List<QueuedOrder> delivered = new ArrayList<>();
        while (delivered.size() < written + left) {
            delivered.addAll(stream.readNew(voucher, "c-1", 1_000));
        }
        List<QueuedOrder> inMySql = delivered.subList(0, written);
        List<QueuedOrder> notYet = delivered.subList(written, written + left);
        for (QueuedOrder order : delivered) {
            stream.recordFailedAttempt(order);
        }

        long xacksBefore = redis.commandCalls("xack");
        long hdelsBefore = redis.commandCalls("hdel");
        stream.acknowledge(voucher, inMySql);

        assertThat(redis.commandCalls("xack") - xacksBefore).as("XACK commands for %d orders", written).isEqualTo(3);
        assertThat(redis.commandCalls("hdel") - hdelsBefore).as("HDEL commands for %d orders", written).isEqualTo(6);

        assertThat(redisson.getStream(VoucherKeys.orders(voucher), StringCodec.INSTANCE).size())
                .as("messages left in the stream").isEqualTo(left);
        assertThat(redisson.getStream(VoucherKeys.orders(voucher), StringCodec.INSTANCE).getPendingInfo(GROUP).getTotal())
                .as("messages delivered and not acknowledged").isEqualTo(left);
        assertThat(redisson.getMap(VoucherKeys.pending(voucher), StringCodec.INSTANCE).keySet())
                .containsExactlyInAnyOrderElementsOf(notYet.stream().map(order -> Long.toString(order.orderId())).toList());
        assertThat(redisson.getMap(VoucherKeys.attempts(voucher), StringCodec.INSTANCE).keySet())
                .containsExactlyInAnyOrderElementsOf(notYet.stream().map(QueuedOrder::messageId).toList());
    }
}
