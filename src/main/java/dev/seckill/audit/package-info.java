/**
 * Oversight of a sale. Each voucher's audit ({@link dev.seckill.audit.AuditService}): MySQL's stock and orders,
 * Redis's counter, buyers and pending orders, and the data losses the durability module recorded, counted against
 * each other into one verdict; it asks the order and voucher modules for MySQL's numbers, inside one snapshot. And
 * the live numbers of the admin dashboard: every instance writes a snapshot of its cumulative sale counters to Redis
 * about once a second ({@code LivePublisher}), in a hash that expires when the instance stops writing it;
 * {@code GET /admin/vouchers/{id}/live} puts them next to the sale's stock, orders and backlog. The snapshots live in
 * one hash slot ({@code {snapshots}}), outside the voucher keys' prefix. Web adapter: {@code audit.web}.
 */
@Owns(redisKeys = "seckill:live:")
package dev.seckill.audit;

import dev.seckill.Owns;
