package dev.seckill.sale.failover;

import dev.seckill.salestate.VoucherKeys;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import javax.sql.DataSource;

import dev.seckill.order.OrdersByVoucher;
import dev.seckill.support.IntegrationTest;
import dev.seckill.voucher.VoucherStock;
import org.junit.jupiter.api.Test;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.context.annotation.Primary;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.TestPropertySource;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A fresh sale (a stock reset that deletes the orders) and then a failover, on the real Redis and MySQL: the
 * journal of the instance still holds the orders of the old sale, and its replay must not bring them back into the
 * new one. The test's Redis is one server, which journals nothing, so the test gives the instance a journal of its
 * own and runs the replay the failover watcher runs.
 */
@TestPropertySource(properties = {"seckill.mode=async", "seckill.web.instance-id=fresh-sale-failover-it"})
@Import(FreshSaleFailoverIT.Journaling.class)
class FreshSaleFailoverIT extends IntegrationTest {

    @TestConfiguration(proxyBeanMethods = false)
    static class Journaling {

        @Bean
        @Primary
        AcceptedOrdersJournal journalingEvenOnOneServer() {
            return new AcceptedOrdersJournal(Duration.ofMinutes(1), 10_000, System::nanoTime);
        }
    }

    @Autowired
    FailoverReplay replay;

    @Autowired
    OrdersByVoucher orders;

    @Autowired
    VoucherStock vouchers;

    @Autowired
    RedissonClient redisson;

    @Autowired
    DataSource dataSource;

    @Test
    void aReplayAfterAFreshSaleBringsBackNoneOfTheDeletedOrders() {
        long voucherId = api.createVoucher(10);
        List<String> shoppers = api.mintShoppers(3);
        List<Long> bought = new ArrayList<>();
        for (String shopper : shoppers) {
            bought.add(Long.parseLong(api.seckill(voucherId, shopper).expectStatus(202).json().path("orderId").asString()));
        }
        assertThat(api.awaitNoPendingOrders(voucherId, Duration.ofSeconds(30)).path("orders").asLong()).isEqualTo(3);

        api.asAdmin("PUT", "/admin/vouchers/" + voucherId + "/stock", "{\"stock\":30,\"deleteOrders\":true}")
                .expectStatus(200);
        // A failover now: the journal still holds the three orders of the sale the reset ended.
        AcceptedOrdersJournal.Snapshot journaled = new AcceptedOrdersJournal.Snapshot(replay.journaled().entries().stream()
                .filter(order -> order.voucherId() == voucherId).toList(), true);
        assertThat(journaled.entries()).extracting(AcceptedOrdersJournal.Entry::saleGeneration).containsExactly(0L, 0L, 0L);
        List<FailoverReplay.Replayed> found = replay.replay(journaled, orders::inMySql, vouchers::saleGeneration);
        assertThat(found).singleElement()
                .satisfies(voucher -> {
                    assertThat(voucher.voided()).isEqualTo(3);
                    assertThat(voucher.reapplied()).isZero();
                });

        JsonNode audit = api.awaitNoPendingOrders(voucherId, Duration.ofSeconds(30));
        assertThat(audit.path("orders").asLong()).as("the deleted orders stay deleted: %s", audit).isZero();
        assertThat(audit.path("redisStock").asLong()).isEqualTo(30);
        assertThat(audit.path("dbStock").asLong()).isEqualTo(30);
        assertThat(redisson.getSet(VoucherKeys.buyers(voucherId), StringCodec.INSTANCE).size()).isZero();
        // The new sale's orders are journaled as its own, and a replay puts them back like any other.
        api.seckill(voucherId, shoppers.get(0)).expectStatus(202);
        assertThat(replay.journaled().entries()).filteredOn(order -> order.voucherId() == voucherId)
                .extracting(AcceptedOrdersJournal.Entry::saleGeneration).containsExactly(0L, 0L, 0L, 1L);
    }

    /**
     * Should a deleted order come back all the same (any way at all), the audit must not call the sale consistent,
     * however well its numbers add up.
     */
    @Test
    void anOrderAFreshSaleDeletedThatIsInMySqlAgainMakesTheAuditInconsistent() {
        long voucherId = api.createVoucher(10);
        String shopper = api.mintShoppers(1).get(0);
        long orderId = Long.parseLong(api.seckill(voucherId, shopper).expectStatus(202).json().path("orderId").asString());
        api.awaitNoPendingOrders(voucherId, Duration.ofSeconds(30));
        JdbcTemplate jdbc = new JdbcTemplate(dataSource);
        List<Object[]> row = jdbc.query("SELECT id, user_id, voucher_id, status, created_at FROM voucher_order WHERE id = ?",
                (rs, n) -> new Object[] {rs.getLong(1), rs.getLong(2), rs.getLong(3), rs.getString(4), rs.getTimestamp(5)},
                orderId);
        assertThat(row).hasSize(1);

        api.asAdmin("PUT", "/admin/vouchers/" + voucherId + "/stock", "{\"stock\":30,\"deleteOrders\":true}")
                .expectStatus(200);
        // The order back in MySQL with its unit taken in both stores, as a consumer writes a queued order.
        jdbc.update("INSERT INTO voucher_order (id, user_id, voucher_id, status, created_at) VALUES (?, ?, ?, ?, ?)",
                row.get(0));
        jdbc.update("UPDATE seckill_voucher SET stock = stock - 1 WHERE voucher_id = ?", voucherId);
        redisson.getAtomicLong(VoucherKeys.stock(voucherId)).decrementAndGet();
        redisson.getSet(VoucherKeys.buyers(voucherId), StringCodec.INSTANCE).add(Long.toString((Long) row.get(0)[1]));

        JsonNode audit = api.audit(voucherId);
        assertThat(audit.path("orders").asLong()).isEqualTo(1);
        assertThat(audit.path("redisAgrees").asBoolean()).as("its numbers add up: %s", audit).isTrue();
        assertThat(audit.path("consistent").asBoolean()).as("an order the admin deleted is back: %s", audit).isFalse();
    }
}
