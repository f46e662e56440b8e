package dev.seckill.support;

import dev.seckill.salestate.SeckillLocks;

/** Holds a shopper's lock elsewhere: the way to freeze "another request of this shopper is in flight" in a test. */
public final class ShopperLockHolder extends LockHeldElsewhere {

    public ShopperLockHolder(SeckillLocks locks, long voucherId, long shopperId) throws InterruptedException {
        super(() -> locks.lockShopper(voucherId, shopperId), "the shopper's lock");
    }
}
