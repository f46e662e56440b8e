package dev.seckill.sale.ticket;

import dev.seckill.web.security.CurrentShopper;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Positive;
import jakarta.validation.constraints.Size;
import org.springframework.http.CacheControl;
import org.springframework.http.ResponseEntity;
import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/**
 * The purchase handshake, for scripts ({@code /seckill/...}, bearer token) and the buy page
 * ({@code /shop/seckill/...}, its cookie and CSRF token): a challenge, then a ticket for its solution.
 */
@RestController
class TicketController {

    private final PurchaseTickets tickets;

    TicketController(PurchaseTickets tickets) {
        this.tickets = tickets;
    }

    /** The ALTCHA widget's {@code challengeurl}: never cached, each is the shopper's own. */
    @GetMapping({"/seckill/{voucherId}/challenge", "/shop/seckill/{voucherId}/challenge"})
    ResponseEntity<Challenge> challenge(@PathVariable @Positive long voucherId,
            @AuthenticationPrincipal CurrentShopper shopper) {
        return ResponseEntity.ok().cacheControl(CacheControl.noStore())
                .body(tickets.challenge(shopper.id(), voucherId));
    }

    /** @param solution the widget's payload (base64), absent for a voucher that asks no challenge */
    record TicketRequest(@Size(max = 4_096, message = "a solution is about 300 characters") String solution) {
    }

    @PostMapping({"/seckill/{voucherId}/ticket", "/shop/seckill/{voucherId}/ticket"})
    ResponseEntity<Ticket> ticket(@PathVariable @Positive long voucherId,
            @RequestBody(required = false) @Valid TicketRequest request,
            @AuthenticationPrincipal CurrentShopper shopper) {
        return ResponseEntity.ok().cacheControl(CacheControl.noStore())
                .body(tickets.issue(shopper.id(), voucherId, request == null ? null : request.solution()));
    }
}
