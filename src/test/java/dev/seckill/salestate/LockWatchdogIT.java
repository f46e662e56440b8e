package dev.seckill.salestate;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;

import dev.seckill.support.IntegrationTest;
import dev.seckill.support.TestServers;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.Test;
import org.redisson.Redisson;
import org.redisson.api.RLock;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.context.TestPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * The locks live exactly as long as their holder: held well past the watchdog timeout they stay (no
 * lease runs out under a slow request), and the lock of a holder whose process died frees itself a
 * watchdog timeout later. A 2 s watchdog keeps the test short.
 */
@TestPropertySource(properties = {"seckill.lock.watchdog-timeout=2s", "seckill.lock.voucher-wait=1s"})
class LockWatchdogIT extends IntegrationTest {

    @Autowired
    SeckillLocks locks;
    @Autowired
    RedissonClient redisson;
    @Autowired
    MeterRegistry registry;

    @Test
    void aHeldLockOutlivesThreeWatchdogTimeoutsAndIsReleasedCleanly() {
        long voucherId = ThreadLocalRandom.current().nextLong(1, Long.MAX_VALUE);
        double expiredBefore = expired();
        RLock shopperLock = redisson.getLock(locks.shopperLockName(voucherId, 7));
        try (HeldLock held = locks.lockShopper(voucherId, 7)) {
            // A fixed lease of 2 s would be gone after the first two seconds of this.
            await().during(Duration.ofSeconds(6)).atMost(Duration.ofSeconds(8)).until(shopperLock::isLocked);
            // Another request thread (the holding thread would re-enter the lock: Redisson's locks are reentrant).
            assertThat(CompletableFuture.supplyAsync(() -> locks.lockShopper(voucherId, 7)))
                    .as("a second request of the shopper while the first still runs").failsWithin(Duration.ofSeconds(5));
        }
        assertThat(shopperLock.isLocked()).isFalse();
        assertThat(expired()).as("locks found expired when released").isEqualTo(expiredBefore);
    }

    @Test
    void theLockOfAHolderThatDiedFreesItselfAfterTheWatchdogTimeout() {
        long voucherId = ThreadLocalRandom.current().nextLong(1, Long.MAX_VALUE);
        RedissonClient otherProcess = otherInstance();
        RLock theirs = otherProcess.getLock(locks.voucherLockName(voucherId));
        theirs.lock(); // no lease: their watchdog keeps it
        otherProcess.shutdown(); // the process dies without releasing; nobody renews the lock any more

        RLock voucherLock = redisson.getLock(locks.voucherLockName(voucherId));
        assertThat(voucherLock.isLocked()).as("still held right after the holder died").isTrue();
        assertThatThrownBy(() -> locks.lockVoucher(voucherId)).as("waits voucher-wait (1 s), then refuses")
                .isInstanceOf(RuntimeException.class);
        await().atMost(Duration.ofSeconds(4)).until(() -> !voucherLock.isLocked());
        try (HeldLock held = locks.lockVoucher(voucherId)) {
            assertThat(voucherLock.isHeldByCurrentThread()).isTrue();
        }
    }

    private double expired() {
        return registry.get("seckill.lock.expired").counter().count();
    }

    /** Another instance's Redisson client, on the same Redis, with the same 2 s watchdog. */
    private static RedissonClient otherInstance() {
        var servers = TestServers.properties();
        Config config = new Config();
        config.setLockWatchdogTimeout(2_000);
        config.useSingleServer()
                .setAddress("redis://" + servers.get("spring.data.redis.host") + ":" + servers.get("spring.data.redis.port"))
                .setDatabase(Integer.parseInt(servers.getOrDefault("spring.data.redis.database", "0")));
        return Redisson.create(config);
    }
}
