package dev.seckill.sale.room;

import java.time.Instant;
import java.util.List;

/**
 * A waiting room's lottery as the shop publishes it: the commitment from the start; once drawn (null before) the seed,
 * the entrants' hash and the entrants in place order, so that anyone can recompute the order
 * ({@code scripts/room-draw}, {@link RoomLottery}).
 */
public record RoomDraw(long voucherId, Instant opensAt, Instant drawAt, String commitment, String seed,
        String entrantsHash, List<String> entrants, String rule) {

    /** The rule, as docs/security.md states it. */
    static final String RULE = "place order: ascending first 52 bits of SHA-256(seed + \":\" + entrantsHash + \":\" + "
            + "shopperId), ties by shopperId as a decimal string; entrantsHash: SHA-256 of the entrants' ids sorted as "
            + "strings, each followed by \"\\n\"; commitment: SHA-256(seed)";
}
