package dev.seckill.sale.room;

import java.time.Instant;

/**
 * A waiting room's public "now serving" state: the same for everyone, so a cache in front may answer it for the whole
 * crowd. Each page knows its own place (learnt once) and compares: it asks for its admission only when
 * {@code admittedUpTo} reaches its place.
 *
 * @param voucherId           the voucher whose room this is
 * @param drawn               whether the lottery is drawn (places are known)
 * @param drawAt              when the arrival window closes and the lottery is drawn
 * @param admittedUpTo        places from the front let in so far
 * @param waiting             everyone in the room
 * @param unitsLeft           units that no open admission holds: what the places behind {@code admittedUpTo} may get
 * @param soldOut             nothing left to sell, for now (units that come back, an order unpaid or cancelled, reopen
 *                            the room)
 * @param admissionsPerSecond the room's pace (an admin may change it), for a page's own estimate of its turn
 * @param paused              the shop paused the room: nobody more is let in until it resumes
 * @param closed              the shop closed the room: nobody more joins or is let in
 * @param pollAfterSeconds    when to look again: slower once sold out or closed
 */
public record RoomNow(long voucherId, boolean drawn, Instant drawAt, long admittedUpTo, long waiting, long unitsLeft,
        boolean soldOut, int admissionsPerSecond, boolean paused, boolean closed, long pollAfterSeconds) {
}
