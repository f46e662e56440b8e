/**
 * Who a shopper is: tokens are HMAC-signed JWTs ({@link dev.seckill.security.ShopperTokens}) issued here
 * and verified with the shared secret by one decoder (a Nimbus decoder behind a cache of verified tokens),
 * with no Redis or MySQL call; the verified shopper is a {@link dev.seckill.security.CurrentShopper}.
 * The filter chains that use them, the admin's Basic login and their answers are HTTP, so they live in the
 * web module ({@code dev.seckill.web.security}). Owns no table, key or script.
 */
package dev.seckill.security;
