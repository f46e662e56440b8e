/**
 * Who is asking: shopper tokens (HMAC-signed JWTs, {@link dev.seckill.web.security.ShopperTokens}) verified with the
 * shared secret by one decoder behind a cache, with no Redis or MySQL call; the verified shopper is a
 * {@link dev.seckill.web.security.CurrentShopper}; the admin's Basic login, limited per address; the filter chains.
 * A named interface of the web module: the features' web adapters use it.
 */
@NamedInterface("security")
package dev.seckill.web.security;

import org.springframework.modulith.NamedInterface;
