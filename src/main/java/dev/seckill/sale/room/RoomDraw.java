package dev.seckill.sale.room;

import java.time.Instant;
import java.util.List;

/**
 * A waiting room's lottery as the shop publishes it: the commitment from the start, the seed and the entrants in
 * place order once drawn (null before), so that anyone can recompute the order ({@code scripts/room-draw}).
 */
public record RoomDraw(long voucherId, Instant opensAt, Instant drawAt, String commitment, String seed,
        List<String> entrants, String rule) {

    /** The rule, as docs/security.md states it. */
    static final String RULE = "place order: ascending first 52 bits of SHA-256(seed + \":\" + shopperId), "
            + "ties by shopperId as a decimal string; commitment: SHA-256(seed)";
}
