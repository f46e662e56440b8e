package dev.seckill.sale.internal;

import java.util.regex.Pattern;

import dev.seckill.refusal.Reason;
import dev.seckill.refusal.Refusal;
import dev.seckill.salestate.PurchaseDecision.Tickets;
import dev.seckill.ticket.TicketSettings;
import org.springframework.stereotype.Component;

/**
 * What both order paths ask of a purchase's ticket before Redis: whether one is needed at all
 * ({@code seckill.tickets.required}), and that it could be one. Whether it is the shopper's live ticket is decided by
 * the purchase script, in the call that takes the unit.
 */
@Component
public class TicketAdmission {

    /** Tickets are 24 characters of URL-safe base64 (dev.seckill.ticket); anything far from that is not one. */
    private static final Pattern TICKET_LIKE = Pattern.compile("[A-Za-z0-9_-]{1,64}");

    private final boolean required;

    TicketAdmission(TicketSettings settings) {
        this.required = settings.required();
    }

    /**
     * @throws Refusal {@code TICKET_REQUIRED} when tickets are asked and the request carries none,
     *                 {@code TICKET_INVALID} when what it carries cannot be a ticket
     */
    public Tickets admit(String ticket) {
        if (!required) {
            return Tickets.NOT_ASKED;
        }
        if (ticket == null || ticket.isEmpty()) {
            throw new Refusal(Reason.TICKET_REQUIRED);
        }
        if (!TICKET_LIKE.matcher(ticket).matches()) {
            throw new Refusal(Reason.TICKET_INVALID);
        }
        return Tickets.ASKED;
    }

    /** The purchase script's answer when the ticket was not the shopper's live one. */
    public static Refusal noTicket() {
        return new Refusal(Reason.TICKET_INVALID);
    }
}
