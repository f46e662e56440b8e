package dev.seckill.sale.room;

/** Where a shopper stands in a waiting room, in the order {@code room-place.lua} numbers them. */
public enum PlaceState {
    /** Not in the room: join first. */
    NOT_IN_ROOM,
    /** In the draw, whose arrival window is still open: no place until it closes. */
    IN_THE_DRAW,
    /** Waiting for their turn. */
    WAITING,
    /** Let in: the admission (a ticket) buys within its time. */
    ADMITTED,
    /** Let in earlier; the admission ran out unused. */
    ADMISSION_LAPSED,
    /**
     * Nothing is left to sell, for now: units that come back (an order unpaid or cancelled) let places in again. Said
     * to everyone in the room, let in or not; an admission's time starts only when there is something to buy.
     */
    SOLD_OUT,
    /** Let in, and the admission was spent by a purchase: the shopper's order tells the rest. */
    ADMISSION_USED,
    /** Not told: the shopper asked more often than the room's poll limit lets them in this window. */
    POLLED_TOO_OFTEN,
    /** An admin closed the room before this place was let in: nobody more is. */
    ROOM_CLOSED
}
