package dev.seckill.refusal;

/**
 * Why the sale turned a request down, in the sale's own words: the one place they are written. No HTTP here: the
 * web module alone decides what each reason is answered with (its problem code and status).
 */
public enum Reason {
    VOUCHER_NOT_FOUND("Voucher not found"),
    SALE_NOT_STARTED("The sale has not started yet"),
    SALE_ENDED("The sale has ended"),
    SOLD_OUT("Sold out"),
    ALREADY_ORDERED("This shopper already ordered this voucher"),
    /** Another request of the same shopper for the same voucher holds the shopper's lock. */
    REQUEST_IN_FLIGHT("Another request of this shopper for this voucher is being processed"),
    /** The voucher's lock was not free within its wait, or its stock is being reset or rebuilt. */
    VOUCHER_BUSY("Too many orders in progress for this voucher"),
    ORDER_NOT_FOUND("Order not found"),
    /** A reset or reconcile that must see MySQL complete while accepted orders are still on their way. */
    ORDERS_PENDING("Accepted orders are still on their way to MySQL"),
    /**
     * Not a refusal of the order: it was taken but no Redis replica confirmed it in time, or Redis did not answer
     * whether it was taken at all. Either way the order is named, to be looked up rather than bought again.
     */
    ORDER_UNCONFIRMED("The order is not confirmed: it may stand; look it up before buying again"),
    RATE_LIMITED("Too many requests; slow down"),
    /** Accepted, but not in MySQL yet (a few milliseconds normally): it cannot be paid or cancelled until it is. */
    ORDER_ON_ITS_WAY("The order is still on its way; try again in a moment"),
    ORDER_PAID("The order is paid"),
    ORDER_EXPIRED("The order expired", "The order expired: its payment window ran out and its unit went back on sale"),
    ORDER_CANCELLED("The order was cancelled"),
    ORDER_REFUNDED("The order ended unpaid and its late payment was refunded",
            "The order ended unpaid and the payment that came afterwards was refunded"),
    /** The payment provider could not be reached, or refused to open a payment. */
    PAYMENT_UNAVAILABLE("The payment provider cannot be reached right now; try again shortly"),
    /** Tickets are asked ({@code seckill.tickets.required}) and the purchase carried none. */
    TICKET_REQUIRED("A purchase needs a ticket",
            "A purchase needs a ticket: POST /seckill/{id}/ticket, then send it in the Seckill-Ticket header"),
    /** The purchase's ticket is not this shopper's live ticket for this voucher: spent, expired, or never issued. */
    TICKET_INVALID("The ticket is spent, expired, or not this shopper's",
            "The ticket is spent, expired, or not this shopper's ticket for this voucher"),
    /** The voucher asks for a solved challenge before a ticket, and none was sent. */
    CHALLENGE_REQUIRED("A ticket for this voucher needs a solved challenge",
            "A ticket for this voucher needs a solved challenge: GET /seckill/{id}/challenge"),
    /** The solution is wrong, forged, expired, or for another shopper or voucher. */
    CHALLENGE_INVALID("The challenge solution is not valid",
            "The challenge solution is wrong, expired, or not for this shopper and voucher"),
    /** The solution was used for a ticket before: each is accepted once. */
    CHALLENGE_SPENT("This challenge solution was used before",
            "This challenge solution was used before; solve a new challenge"),
    /** A waiting room's address for a voucher that has none. */
    NO_WAITING_ROOM("This sale has no waiting room"),
    /** A ticket asked for a voucher with a waiting room: its admissions are its tickets. */
    WAITING_ROOM_REQUIRED("This sale lets shoppers in through its waiting room",
            "This sale lets shoppers in through its waiting room: join it (POST /seckill/{id}/room), then poll your "
                    + "place (GET /seckill/{id}/room/place) until you are let in"),
    /** A purchase of a voucher with a waiting room without this shopper's live admission. */
    NOT_ADMITTED("Not let in from the waiting room",
            "Not let in from the waiting room: your turn has not come, your admission ran out or was spent, or it "
                    + "is not yours; GET /seckill/{id}/room/place says which"),
    /** A place asked of a waiting room the shopper has not joined. */
    NOT_IN_WAITING_ROOM("Not in this sale's waiting room",
            "Not in this sale's waiting room: join it first (POST /seckill/{id}/room)"),
    /** A voucher whose waiting room's arrival window (the instances' default) would not close before its sale ends. */
    ARRIVAL_WINDOW_TOO_LONG("The waiting room's arrival window does not end before the sale does"),
    /** The lottery's seed and order asked for before its arrival window closed. */
    DRAW_NOT_YET("The waiting room's lottery is not drawn yet"),
    /** An admin closed the voucher's waiting room: nobody more joins or is let in. */
    ROOM_CLOSED("The waiting room is closed", "The shop closed this sale's waiting room: nobody more is let in");

    private final String title;
    private final String text;

    Reason(String title) {
        this(title, title);
    }

    /** @param text the explanation, where it says more than the title */
    Reason(String title, String text) {
        this.title = title;
        this.text = text;
    }

    /** What the reason is, the same for every refusal of it. */
    public String title() {
        return title;
    }

    /** The default explanation of one refusal. */
    public String text() {
        return text;
    }
}
