package dev.seckill.sale.reconcile;

/**
 * Settles the sync path's units whose orders MySQL already holds, before a rebuild counts MySQL's stock: the
 * rebuild must not count them twice. The sync path's sweeper does it. In async mode no sweeper runs: units a sync
 * instance left behind wait for one (ModeSwitchCheck names them at start-up), as they did before.
 */
public interface CommittedUnits {

    void settleCommitted(long voucherId);
}
