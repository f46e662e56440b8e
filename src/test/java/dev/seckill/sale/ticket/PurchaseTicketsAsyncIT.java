package dev.seckill.sale.ticket;

/** {@link PurchaseTicketsSuite} on the async path (the purchase script queues; concurrent orders share a call). */
class PurchaseTicketsAsyncIT extends PurchaseTicketsSuite {
}
