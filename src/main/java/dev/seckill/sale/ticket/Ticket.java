package dev.seckill.sale.ticket;

/** A purchase ticket: send {@code ticket} in the purchase's {@code Seckill-Ticket} header within its lifetime. */
public record Ticket(String ticket, long voucherId, long expiresInSeconds) {
}
