package dev.seckill.sale.durability;

import java.time.Duration;

import dev.seckill.support.IntegrationTest;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.Test;
import org.redisson.api.RedissonClient;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.TestPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A Redis that lost its data is noticed and never hidden: the epoch marker's disappearance is recorded
 * once, counted, and every sale that existed at that moment is reported as not consistent, however well
 * its numbers add up afterwards. (The marker alone is deleted here, so that the other test classes
 * sharing this Redis keep their keys; {@code RedisChaosIT} flushes a Redis of its own.)
 */
// Sync: an order is in MySQL when its 201 comes, so the audit right after it is settled.
@TestPropertySource(properties = "seckill.mode=sync")
class RedisDataLossIT extends IntegrationTest {

    @Autowired
    RedisEpochWatcher watcher;

    @Autowired
    RedissonClient redisson;

    @Autowired
    MeterRegistry meters;

    @Autowired
    JdbcTemplate db;

    private long losses() {
        return db.queryForObject("SELECT COUNT(*) FROM redis_data_loss", Long.class);
    }

    @Test
    void aLostMarkerIsRecordedOnceAndTaintsTheSalesThatExistedThen() throws Exception {
        long before = api.createVoucher(5);
        api.seckill(before, api.mintShoppers(1).get(0)).expectStatus(201);
        assertThat(api.audit(before).path("consistent").asBoolean()).isTrue();
        assertThat(api.audit(before).path("redisDataLost").asBoolean()).isFalse();
        long recorded = losses();

        redisson.getBucket(RedisEpochWatcher.MARKER_KEY).delete();
        // This check, or another test context's watcher sharing this Redis and database, records it.
        watcher.check();

        await().atMost(Duration.ofSeconds(5)).until(() -> losses() == recorded + 1);
        assertThat(watcher.check()).as("the same loss is not recorded twice").isEmpty();
        assertThat(losses()).isEqualTo(recorded + 1);
        assertThat(redisson.getBucket(RedisEpochWatcher.MARKER_KEY).isExists()).as("a fresh marker").isTrue();
        assertThat(meters.find("seckill.redis.data.losses").counter()).as("the metric").isNotNull();

        var tainted = api.audit(before);
        assertThat(tainted.path("redisDataLost").asBoolean()).isTrue();
        assertThat(tainted.path("redisDataLostAt").asText()).isNotBlank();
        assertThat(tainted.path("redisAgrees").asBoolean()).as("the numbers still add up").isTrue();
        assertThat(tainted.path("consistent").asBoolean()).as("but the sale cannot be proven whole").isFalse();
        var rebuilt = api.asAdmin("POST", "/admin/vouchers/" + before + "/reconcile", null).expectStatus(200).json();
        assertThat(rebuilt.path("redisDataLost").asBoolean()).isTrue();
        assertThat(rebuilt.path("unknowable").asText()).contains("cannot be counted");
        assertThat(api.audit(before).path("consistent").asBoolean()).as("a rebuild does not make it whole").isFalse();

        long after = api.createVoucher(5);
        api.seckill(after, api.mintShoppers(1).get(0)).expectStatus(201);
        assertThat(api.audit(after).path("redisDataLost").asBoolean()).isFalse();
        assertThat(api.audit(after).path("consistent").asBoolean()).isTrue();
    }

    @Test
    void theWatcherNoticesALossByItselfWithinItsCheckInterval() throws Exception {
        long voucher = api.createVoucher(5);
        redisson.getBucket(RedisEpochWatcher.MARKER_KEY).delete();
        await().atMost(Duration.ofSeconds(5))
                .until(() -> api.audit(voucher).path("redisDataLost").asBoolean());
        assertThat(redisson.getBucket(RedisEpochWatcher.MARKER_KEY).isExists()).isTrue();
    }
}
