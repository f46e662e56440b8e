package dev.seckill.support;

import dev.seckill.salestate.SeckillLocks;

/**
 * Holds a voucher's order-writes lock alone, elsewhere: what a give-up deciding looks like to the consumers,
 * and the way to keep a voucher's accepted orders pending in a test.
 */
public final class OrderWritesHolder extends LockHeldElsewhere {

    public OrderWritesHolder(SeckillLocks locks, long voucherId) throws InterruptedException {
        super(() -> locks.lockOrderWritesExclusively(voucherId)
                .orElseThrow(() -> new IllegalStateException("the voucher's order writes did not pause")),
                "the voucher's order writes");
    }
}
