package dev.seckill.sale.ticket;

/**
 * An ALTCHA challenge, as its widget reads it: find the number n (at most {@code maxnumber}) for which
 * SHA-256(salt + n) is {@code challenge}. The salt carries the expiry, shopper and voucher; the signature (an HMAC
 * of the challenge by the instances' key) lets any instance check a solution without remembering the challenge.
 */
public record Challenge(String algorithm, String challenge, long maxnumber, String salt, String signature) {
}
