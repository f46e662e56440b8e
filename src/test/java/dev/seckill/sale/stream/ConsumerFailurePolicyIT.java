package dev.seckill.sale.stream;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;

import javax.sql.DataSource;

import dev.seckill.salestate.VoucherKeys;
import dev.seckill.support.IntegrationTest;
import dev.seckill.support.Tokens;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.TestPropertySource;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The failure policy against a real MySQL. With {@code max-attempts=1} a single counted attempt gives
 * an order up, so these fail at once if a lock wait counts or if an order found in MySQL is compensated.
 * The instance's sessions wait 1 s for a row lock instead of 50.
 */
@TestPropertySource(properties = {"seckill.mode=async", "seckill.web.instance-id=failure-policy-it",
        "seckill.stream.max-attempts=1",
        "spring.datasource.hikari.connection-init-sql=SET SESSION innodb_lock_wait_timeout = 1"})
@DirtiesContext // its short lock wait and single attempt must not outlive these tests
class ConsumerFailurePolicyIT extends IntegrationTest {

    @Autowired
    RedissonClient redisson;

    @Autowired
    DataSource dataSource;

    @Test
    void lockWaitTimeoutsCountNoAttempt() throws Exception {
        long voucherId = api.createVoucher(5);
        String token = api.mintShoppers(1).get(0);
        String orderId;
        try (Connection holder = dataSource.getConnection()) {
            holder.setAutoCommit(false);
            lockVoucherRow(holder, voucherId);
            orderId = api.seckill(voucherId, token).expectStatus(202).json().path("orderId").asString();
            awaitConsumerWaitingForLock(voucherId);
            Thread.sleep(3_500); // on purpose: three 1 s lock wait timeouts and more, none of which may count
            assertThat(redisson.getMap(VoucherKeys.attempts(voucherId), StringCodec.INSTANCE).size())
                    .as("no attempt counted").isZero();
            assertThat(status(orderId, token)).isEqualTo("PENDING");
            holder.rollback();
        }
        awaitStatus(orderId, token, "AWAITING_PAYMENT");
        JsonNode audit = api.audit(voucherId);
        assertThat(audit.path("failedOrders").asLong()).isZero();
        assertThat(audit.path("deadLetters").asLong()).isZero();
        assertThat(audit.path("consistent").asBoolean()).as(audit.toString()).isTrue();
    }

    /**
     * A rival writes the order while this instance's transaction waits between its "already in MySQL?"
     * check and its INSERT: the INSERT breaks the primary key, the one attempt is used up, and giving up
     * finds the order in MySQL, so it is acknowledged and nothing is compensated.
     */
    @Test
    void anOrderAlreadyInMySqlAtGiveUpIsAcknowledgedNotCompensated() throws Exception {
        long voucherId = api.createVoucher(5);
        String token = api.mintShoppers(1).get(0);
        long shopperId = Tokens.shopperId(token);
        String orderId;
        try (Connection rival = dataSource.getConnection()) {
            rival.setAutoCommit(false);
            lockVoucherRow(rival, voucherId);
            orderId = api.seckill(voucherId, token).expectStatus(202).json().path("orderId").asString();
            awaitConsumerWaitingForLock(voucherId);
            try (PreparedStatement insert = rival.prepareStatement("INSERT INTO voucher_order "
                    + "(id, user_id, voucher_id, status, created_at) VALUES (?, ?, ?, 'AWAITING_PAYMENT', NOW(3))");
                    PreparedStatement take = rival.prepareStatement(
                            "UPDATE seckill_voucher SET stock = stock - 1 WHERE voucher_id = ?")) {
                insert.setLong(1, Long.parseLong(orderId));
                insert.setLong(2, shopperId);
                insert.setLong(3, voucherId);
                insert.executeUpdate();
                take.setLong(1, voucherId);
                take.executeUpdate();
            }
            rival.commit();
        }
        JsonNode audit = api.awaitNoPendingOrders(voucherId, Duration.ofSeconds(20));
        assertThat(status(orderId, token)).isEqualTo("AWAITING_PAYMENT");
        assertThat(audit.path("failedOrders").asLong()).as("not given up").isZero();
        assertThat(audit.path("deadLetters").asLong()).isZero();
        assertThat(audit.path("orders").asLong()).isEqualTo(1);
        assertThat(audit.path("redisStock").asLong()).as("its unit stays sold").isEqualTo(4);
        assertThat(redisson.getSet(VoucherKeys.buyers(voucherId), StringCodec.INSTANCE)
                .contains(Long.toString(shopperId))).isTrue();
        assertThat(audit.path("consistent").asBoolean()).as(audit.toString()).isTrue();
    }

    private static void lockVoucherRow(Connection connection, long voucherId) throws SQLException {
        try (PreparedStatement lock = connection.prepareStatement(
                "SELECT stock FROM seckill_voucher WHERE voucher_id = ? FOR UPDATE")) {
            lock.setLong(1, voucherId);
            lock.executeQuery().close();
        }
    }

    /**
     * Until the consumer has read the order (it is delivered, not acknowledged), then a little longer:
     * its next statements are the "already in MySQL?" check and the UPDATE that waits for our lock.
     */
    private void awaitConsumerWaitingForLock(long voucherId) throws InterruptedException {
        Awaitility.await("the consumer reads the order").atMost(Duration.ofSeconds(15))
                .pollInterval(Duration.ofMillis(10)).until(() -> redisson.getStream(VoucherKeys.orders(voucherId),
                        StringCodec.INSTANCE).getPendingInfo("order-writers").getTotal() > 0);
        Thread.sleep(300); // on purpose: time for the check and for the UPDATE to reach our lock and wait
    }

    private String status(String orderId, String token) {
        return api.get("/orders/" + orderId, "Authorization", "Bearer " + token).expectStatus(200).json()
                .path("status").asString();
    }

    private void awaitStatus(String orderId, String token, String status) {
        Awaitility.await("order " + orderId + " becomes " + status).atMost(Duration.ofSeconds(20))
                .pollInterval(Duration.ofMillis(200)).until(() -> status.equals(status(orderId, token)));
    }
}
