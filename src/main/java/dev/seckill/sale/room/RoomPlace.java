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
 * @param etaSeconds        about how long until their turn at the room's rate, while units are free for everyone
 *                          ahead and for them; null otherwise, once let in and before the draw
 * @param unitsLeft         while waiting: the units left that no admitted shopper holds (each may buy one)
 * @param turnLikely        while waiting: whether those units reach their place if everyone ahead buys; false: the
 *                          units will likely run out first (their turn comes only as admissions go unused or units
 *                          come back)
 * @param drawAt            when the arrival window closes and the lottery is drawn
 * @param ticket            the admission, while they are let in: the purchase's {@code Seckill-Ticket}
 * @param ticketExpiresInSeconds how long the admission lasts yet
 * @param pollAfterSeconds  when to ask again
 * @param odds              while waiting where the units will likely run out first: the chance (0 to 1) that the turn
 *                          comes all the same, as admissions go unused at the rate they have in this room so far; null
 *                          while too few admissions have ended to say ({@link RoomOdds})
 * @param paused            while waiting: whether the shop paused the room (nobody more is let in until it resumes)
 */
public record RoomPlace(String state, Long place, Long ahead, long admittedUpTo, long waiting, Long etaSeconds,
        Long unitsLeft, Boolean turnLikely, Instant drawAt, String ticket, Long ticketExpiresInSeconds,
        long pollAfterSeconds, Double odds, Boolean paused) {
}
