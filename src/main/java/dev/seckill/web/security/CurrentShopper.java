package dev.seckill.web.security;

/**
 * The shopper a request's bearer token belongs to: the principal of an authenticated shopper request.
 * Declare it as {@code @AuthenticationPrincipal CurrentShopper shopper} in a controller.
 */
public record CurrentShopper(long id) {
}
