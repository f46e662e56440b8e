package dev.seckill.sale.reconcile;

import dev.seckill.AsyncMode;
import org.springframework.stereotype.Component;

/** Async mode: no sweeper runs here, so a rebuild settles no sync unit (see CommittedUnits). */
@AsyncMode
@Component
class NoSyncUnits implements CommittedUnits {

    @Override
    public void settleCommitted(long voucherId) {
        // nothing held: see CommittedUnits
    }
}
