package dev.seckill.sale;

import dev.seckill.salestate.SeckillLocks;
import dev.seckill.support.ShopperLockHolder;
import dev.seckill.support.Tokens;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.context.TestPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/** The purchase refusals on the sync path, and the one only it has: the shopper's lock held elsewhere. */
@TestPropertySource(properties = "seckill.mode=sync")
class SyncRefusalsIT extends PurchaseRefusals {

    @Autowired
    SeckillLocks locks;

    @Override
    int accepted() {
        return 201;
    }

    @Test
    void requestInFlightWhileTheSameShopperHoldsTheLock() throws Exception {
        long voucherId = api.createVoucher(5);
        String token = api.mintShoppers(1).get(0);
        long shopperId = Tokens.shopperId(token);
        try (ShopperLockHolder held = new ShopperLockHolder(locks, voucherId, shopperId)) {
            api.seckill(voucherId, token).expectProblem(429, "request-in-flight");
        }
        assertThat(api.audit(voucherId).path("redisStock").asLong()).isEqualTo(5);
        api.seckill(voucherId, token).expectStatus(accepted());
    }
}
