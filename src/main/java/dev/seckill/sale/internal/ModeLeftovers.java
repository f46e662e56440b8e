package dev.seckill.sale.internal;

import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

import dev.seckill.SeckillSettings.Mode;

/**
 * Work the other order path left in Redis, which only that path's beans finish: async orders on their way to
 * MySQL (only the stream consumers write them) and units held by sync requests that never finished (only the
 * sync sweeper settles or returns them). Started in the wrong mode, they would wait for ever: the orders
 * unwritten, the units unsold.
 *
 * @param pendingOrders voucher -> async orders accepted and not yet in MySQL
 * @param heldUnits     voucher -> units taken by sync requests that have not settled
 */
record ModeLeftovers(Map<Long, Long> pendingOrders, Map<Long, Integer> heldUnits) {

    /** What an instance started in {@code mode} leaves waiting, if anything. */
    Optional<String> warningFor(Mode mode) {
        Map<Long, ? extends Number> left = mode == Mode.SYNC ? nonZero(pendingOrders) : nonZero(heldUnits);
        if (left.isEmpty()) {
            return Optional.empty();
        }
        if (mode == Mode.SYNC) {
            return Optional.of("Async orders are still on their way to MySQL (voucher -> orders: " + left
                    + "), and only async mode writes them: they wait until an instance runs seckill.mode=async. To switch, "
                    + "run async until the audit of each of these vouchers shows pendingOrders 0.");
        }
        return Optional.of("Units of sync requests that never finished are still held (voucher -> units: " + left
                + "), and only sync mode settles or returns them: they stay sold until an instance runs seckill.mode=sync "
                + "for longer than seckill.sync-units.unit-timeout. To switch, run sync until the audit of each of these "
                + "vouchers shows syncUnitsInFlight 0.");
    }

    private static Map<Long, ? extends Number> nonZero(Map<Long, ? extends Number> counts) {
        Map<Long, Number> left = new TreeMap<>();
        counts.forEach((voucher, count) -> {
            if (count.longValue() > 0) {
                left.put(voucher, count);
            }
        });
        return left;
    }
}
