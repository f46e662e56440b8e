package dev.seckill.sale.reconcile;

import dev.seckill.AsyncMode;
import org.springframework.stereotype.Component;

/** Async mode: no sync unit exists, so a rebuild has none to settle. */
@AsyncMode
@Component
class NoSyncUnits implements CommittedUnits {

    @Override
    public void settleCommitted(long voucherId) {
        // nothing held: see CommittedUnits
    }
}
