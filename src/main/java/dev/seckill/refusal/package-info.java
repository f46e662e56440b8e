/**
 * The sale's refusals ({@link dev.seckill.refusal.Refusal}, {@link dev.seckill.refusal.Reason}), shared by
 * every module that decides one; the web module alone turns them into problem codes and HTTP statuses.
 * Owns no table, key or script.
 */
package dev.seckill.refusal;
