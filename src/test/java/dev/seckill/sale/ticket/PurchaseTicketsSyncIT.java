package dev.seckill.sale.ticket;

import org.springframework.test.context.TestPropertySource;

/** {@link PurchaseTicketsSuite} on the sync path (the purchase script holds the unit under the shopper's lock). */
@TestPropertySource(properties = "seckill.mode=sync")
class PurchaseTicketsSyncIT extends PurchaseTicketsSuite {
}
