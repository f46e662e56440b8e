package dev.seckill.order;

import dev.seckill.voucher.VoucherStock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.ApplicationArguments;
import org.springframework.boot.ApplicationRunner;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Runs the order transaction's statements once, rolled back, before the instance reports ready.
 * On a cold instance the first order's transaction takes seconds (Hibernate translating its queries,
 * class loading) while it holds the voucher lock, so a sale opening right after a deploy would answer
 * voucher-busy to everyone queued behind it. Readiness only turns UP after runners finish.
 */
@Component
class OrderPathWarmUp implements ApplicationRunner {

    private static final Logger log = LoggerFactory.getLogger(OrderPathWarmUp.class);
    private static final long NO_SUCH_ID = -1;

    private final OrderRepository orders;
    private final VoucherStock vouchers;
    private final TransactionTemplate tx;

    OrderPathWarmUp(OrderRepository orders, VoucherStock vouchers, TransactionTemplate tx) {
        this.orders = orders;
        this.vouchers = vouchers;
        this.tx = tx;
    }

    @Override
    public void run(ApplicationArguments args) {
        long start = System.nanoTime();
        tx.executeWithoutResult(status -> {
            orders.existsByUserIdAndVoucherId(NO_SUCH_ID, NO_SUCH_ID);
            vouchers.takeUnits(NO_SUCH_ID, 1);
            orders.findByIdAndUserId(NO_SUCH_ID, NO_SUCH_ID);
            orders.findByUserIdAndVoucherId(NO_SUCH_ID, NO_SUCH_ID);
            status.setRollbackOnly();
        });
        log.info("Order path warmed up in {} ms", (System.nanoTime() - start) / 1_000_000);
    }
}
