package dev.seckill.sale.buying;

import java.util.regex.Pattern;

import dev.seckill.refusal.Reason;
import dev.seckill.refusal.Refusal;
import dev.seckill.sale.buying.PurchaseDecision.Tickets;
import dev.seckill.sale.ticket.TicketSettings;
import dev.seckill.voucher.SaleWindow;
import org.springframework.stereotype.Component;

/**
 * What both order paths ask of a purchase's ticket before Redis: whether one is needed at all
 * ({@code seckill.tickets.required}, or the voucher has a waiting room, whose admissions are tickets), and that it
 * could be one. Whether it is the shopper's live ticket is decided by the purchase script, in the call that takes
 * the unit.
 */
@Component
class TicketAdmission {

    /** Tickets are 24 characters of URL-safe base64 (dev.seckill.sale.ticket); anything far from that is not one. */
    private static final Pattern TICKET_LIKE = Pattern.compile("[A-Za-z0-9_-]{1,64}");

    private final boolean required;

    TicketAdmission(TicketSettings settings) {
        this.required = settings.required();
    }

    /**
     * @param replayable the request carries an {@code Idempotency-Key}: it may be the retry of a purchase whose
     *                   answer was lost, whose ticket that purchase spent; without a ticket it still goes to the
     *                   purchase script, which answers a buyer with their order before it asks for a ticket
     * @throws Refusal {@code TICKET_REQUIRED} when tickets are asked and the request carries none,
     *                 {@code TICKET_INVALID} when what it carries cannot be a ticket
     */
    public Tickets admit(SaleWindow window, String ticket, boolean replayable) {
        if (asked(window) == Tickets.NOT_ASKED) {
            return Tickets.NOT_ASKED;
        }
        if (ticket == null || ticket.isEmpty()) {
            if (replayable) {
                return asked(window);
            }
            throw noTicket(window, ticket);
        }
        if (!TICKET_LIKE.matcher(ticket).matches()) {
            throw noTicket(window, ticket);
        }
        return asked(window);
    }

    /** Whether the voucher's purchases carry a ticket: the orders of one purchase call share the answer. */
    public Tickets asked(SaleWindow window) {
        if (window.hasRoom()) {
            return Tickets.ROOM;
        }
        return required ? Tickets.ASKED : Tickets.NOT_ASKED;
    }

    /**
     * The purchase script's answer when the request's ticket (null: none) was not the shopper's live one: for a
     * voucher with a waiting room, not let in.
     */
    public static Refusal noTicket(SaleWindow window, String ticket) {
        if (window.hasRoom()) {
            return new Refusal(Reason.NOT_ADMITTED);
        }
        return new Refusal(ticket == null || ticket.isEmpty() ? Reason.TICKET_REQUIRED : Reason.TICKET_INVALID);
    }
}
