/**
 * Shoppers: the {@code shopper} table, written when shoppers are minted ({@link dev.seckill.shopper.ShopperService},
 * for the admin and for the local cluster's test sign-in), each with a signed token issued by the web module's
 * {@code ShopperTokens}. Web adapter: {@code shopper.web} (sign-in pages, the admin's shopper minting).
 */
@Owns(tables = "shopper")
package dev.seckill.shopper;

import dev.seckill.Owns;
