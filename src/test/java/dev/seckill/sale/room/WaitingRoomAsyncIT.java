package dev.seckill.sale.room;

import org.junit.jupiter.api.BeforeAll;

/** {@link WaitingRoomSuite} on the async path, tickets not asked: the room's admission is the only ticket. */
class WaitingRoomAsyncIT extends WaitingRoomSuite {

    @BeforeAll
    static void instances() {
        start("async", false);
    }
}
