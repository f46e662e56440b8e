package dev.seckill.sale.room;

import java.time.Instant;

/**
 * A shopper's place in a voucher's waiting room, as the room's page shows it.
 *
 * @param state             where they stand
 * @param place             their place, from 1; null until the lottery is drawn
 * @param ahead             places before theirs not yet let in; null until drawn
 * @param admittedUpTo      how many places from the front have been let in
 * @param waiting           everyone in the room (let in or not)
 * @param etaSeconds        about how long until their turn at the room's rate; null once let in or before the draw
 * @param drawAt            when the arrival window closes and the lottery is drawn
 * @param ticket            the admission, while they are let in: the purchase's {@code Seckill-Ticket}
 * @param ticketExpiresInSeconds how long the admission lasts yet
 * @param pollAfterSeconds  when to ask again
 */
public record RoomPlace(String state, Long place, Long ahead, long admittedUpTo, long waiting, Long etaSeconds,
        Instant drawAt, String ticket, Long ticketExpiresInSeconds, long pollAfterSeconds) {
}
