package dev.seckill.user;

/** The shopper a request's bearer token belongs to; declare it as a controller parameter. */
public record CurrentShopper(long id) {
}
