package dev.seckill.sale.audit;

import dev.seckill.order.OrdersByVoucher;
import dev.seckill.sale.room.RoomNumbers;

import java.time.Instant;
import java.util.List;

/**
 * A voucher's live numbers. Stock and order counts are read when asked, as the audit reads them; the
 * instances' counters are their latest snapshots (at most about a second old).
 *
 * @param at                     this server's time of the answer
 * @param stockInRedis           null when Redis holds no counter for the voucher
 * @param pending                accepted orders not yet in MySQL
 * @param oldestPendingAgeMillis how long the oldest of them has waited (0 when none)
 * @param instances              every instance that wrote a snapshot lately, by name
 * @param lifecycle              the orders in MySQL by state (awaiting payment, paid, expired, cancelled, refunded)
 * @param room                   its waiting room's numbers; null for a voucher without one
 */
public record VoucherLive(long voucherId, Instant at, Long stockInRedis, int stockInMySql, long ordersInMySql, long pending,
        long oldestPendingAgeMillis, long deadLetters, List<InstanceLive> instances, OrdersByVoucher.Lifecycle lifecycle,
        RoomNumbers room) {
}
