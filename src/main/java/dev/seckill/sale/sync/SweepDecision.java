package dev.seckill.sale.sync;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import dev.seckill.salestate.SyncUnits.Unit;
import dev.seckill.salestate.SyncUnits.VoucherUnits;

/**
 * What a sweep does with one voucher's unit records, from a snapshot of them, MySQL's answer and the time:
 * no I/O, so tests decide with any clock. A unit held longer than the timeout is settled if its order is in
 * MySQL and returned if not; a returned unit whose order turned up in MySQL after all is settled (taken
 * again); one that did not is forgotten after {@code keepReturned}. A record younger than the timeout is left
 * to its request, even when its order is in MySQL already (the request settles it a moment later).
 */
final class SweepDecision {

    enum Kind { SETTLE, RETURN, DROP }

    record Action(Kind kind, Unit unit) {
    }

    private final long unitTimeoutMillis;
    private final long keepReturnedMillis;

    SweepDecision(Duration unitTimeout, Duration keepReturned) {
        this.unitTimeoutMillis = unitTimeout.toMillis();
        this.keepReturnedMillis = keepReturned.toMillis();
    }

    /** The orders to look up in MySQL: units held too long, and every returned unit. Empty: nothing to do. */
    Set<Long> toLookUp(VoucherUnits units, long nowMillis) {
        Set<Long> orders = new LinkedHashSet<>();
        units.inFlight().stream().filter(unit -> heldTooLong(unit, nowMillis)).forEach(unit -> orders.add(unit.orderId()));
        units.returned().forEach(unit -> orders.add(unit.orderId()));
        return orders;
    }

    /** {@code committed}: which of {@link #toLookUp}'s orders MySQL has. */
    List<Action> decide(VoucherUnits units, Set<Long> committed, long nowMillis) {
        List<Action> actions = new ArrayList<>();
        for (Unit unit : units.inFlight()) {
            if (heldTooLong(unit, nowMillis)) {
                actions.add(new Action(committed.contains(unit.orderId()) ? Kind.SETTLE : Kind.RETURN, unit));
            }
        }
        for (Unit unit : units.returned()) {
            if (committed.contains(unit.orderId())) {
                actions.add(new Action(Kind.SETTLE, unit));
            } else if (nowMillis - unit.atMillis() >= keepReturnedMillis) {
                actions.add(new Action(Kind.DROP, unit));
            }
        }
        return actions;
    }

    /**
     * Whether the voucher can leave the sweepers' registry: no record, and its sale ended longer ago than
     * the unit timeout, so no request that passed the sale window check can still be about to take a unit.
     */
    boolean canForget(VoucherUnits units, Instant saleEnd, Instant now) {
        return units.isEmpty() && !saleEnd.plusMillis(unitTimeoutMillis).isAfter(now);
    }

    /** A clock behind the taker's makes the unit look younger: it is swept later, never wrongly. */
    private boolean heldTooLong(Unit unit, long nowMillis) {
        return nowMillis - unit.atMillis() >= unitTimeoutMillis;
    }
}
