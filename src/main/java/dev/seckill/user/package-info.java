/**
 * Shoppers: test shoppers minted for load tests and the local shop (an id and its token). Owns no table,
 * key or script: a shopper is the id in a token.
 */
package dev.seckill.user;
