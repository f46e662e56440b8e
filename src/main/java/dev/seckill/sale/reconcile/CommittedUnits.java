package dev.seckill.sale.reconcile;

/**
 * Settles the sync path's units whose orders MySQL already holds, before a rebuild counts MySQL's stock: the
 * rebuild must not count them twice. The sync path's sweeper does it; in async mode no sync unit exists (an
 * async instance does not start while any is left), so there is nothing to settle.
 */
public interface CommittedUnits {

    void settleCommitted(long voucherId);
}
