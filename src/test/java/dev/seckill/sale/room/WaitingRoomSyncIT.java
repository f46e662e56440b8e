package dev.seckill.sale.room;

import dev.seckill.support.FullSuite;
import org.junit.jupiter.api.BeforeAll;

/**
 * {@link WaitingRoomSuite} on the sync path, tickets asked: a solved challenge to join. In the full suite: the fast one
 * runs the suite on the async path, and {@code PurchaseTicketsSyncIT} the sync path's tickets, which admissions are.
 */
@FullSuite
class WaitingRoomSyncIT extends WaitingRoomSuite {

    @BeforeAll
    static void instances() {
        start("sync", true);
    }
}
