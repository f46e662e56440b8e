/**
 * A fair start: a purchase needs a ticket, and a ticket needs a solved proof-of-work challenge.
 * <ul>
 *   <li>{@code GET /seckill/{id}/challenge}: an ALTCHA challenge ({@link dev.seckill.ticket.Challenges}, the
 *       maintained {@code org.altcha:altcha} library) signed by the instances' key, bound to this shopper and
 *       voucher, with an expiry; its difficulty is the voucher's ({@code challenge_difficulty}) or the default.
 *       Any time before the sale ends: the buy page solves it while the countdown runs.</li>
 *   <li>{@code POST /seckill/{id}/ticket} with the solution: only once the sale is open, a short-lived ticket
 *       bound to this shopper and voucher ({@link dev.seckill.ticket.PurchaseTickets}); the solution is spent in
 *       the same Redis call that stores the ticket, so each is accepted once.</li>
 *   <li>the purchase carries the ticket in {@code Seckill-Ticket}; the purchase script itself checks and spends
 *       it when it takes a unit (the sale module's {@code purchase.lua}): no extra round trip on the order line.</li>
 * </ul>
 * Whether tickets are asked is {@code seckill.tickets.required} ({@link dev.seckill.ticket.TicketSettings}).
 * Per-shopper limits on both requests are the ratelimit module's. Owns no table; its Redis keys and script
 * ({@code ticket-issue.lua}) are salestate's, shared with the sale's purchase script that spends them. Web adapter:
 * {@code ticket.web}.
 */
package dev.seckill.ticket;
