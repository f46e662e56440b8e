package dev.seckill.order;

import dev.seckill.salestate.QueuedOrder;

/** What MySQL says of an order about to be given up. */
public interface GiveUpLookup {

    enum Found {
        /** The order is in MySQL: it must be acknowledged, never compensated. */
        THIS_ORDER,
        /** Not this one, but its shopper holds another order of the voucher that holds its unit (the unique key refuses this one). */
        OTHER_ORDER,
        NOTHING
    }

    Found find(QueuedOrder order);

    /** Whether MySQL answers at all right now. */
    boolean answers();
}
