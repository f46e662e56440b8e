package dev.seckill.sale.ticket;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.bind.annotation.ModelAttribute;

/**
 * Tells the buy page whether a purchase needs the handshake (challenge, ticket). Named by package, not by class:
 * the voucher module's pages are its own, and know nothing of tickets.
 */
@ControllerAdvice(basePackages = "dev.seckill.voucher.web")
class TicketsOnPages {

    private final boolean required;

    /** A provider: web slices of the pages load this advice without the settings (then: no tickets). */
    TicketsOnPages(ObjectProvider<TicketSettings> settings) {
        TicketSettings present = settings.getIfAvailable();
        this.required = present != null && present.required();
    }

    @ModelAttribute("ticketsRequired")
    boolean ticketsRequired() {
        return required;
    }
}
