package dev.seckill.sale.sync;

import dev.seckill.sale.reconcile.CommittedUnits;
import dev.seckill.order.OrdersByVoucher;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.seckill.SyncMode;
import dev.seckill.salestate.HeldLock;
import dev.seckill.salestate.SeckillLocks;
import dev.seckill.salestate.SyncUnits.Unit;
import dev.seckill.salestate.SyncUnits.VoucherUnits;
import dev.seckill.salestate.SyncUnits;
import dev.seckill.platform.PeriodicTask;
import dev.seckill.platform.ShutdownOrder;
import dev.seckill.voucher.SaleWindowCache;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * Finds the units of sync requests that died and settles or returns them (see the package's description).
 * Runs on every instance, in both modes (records left from a sync sale are swept after a switch to async),
 * on a thread of its own every {@code sweep-every}: one Redis round trip for the registry and one for every
 * registered voucher's records; MySQL, and the voucher's lock, only for a voucher that has a unit held too
 * long or a returned one. Under the voucher's lock no order of it commits (the sync path writes under it)
 * and no reset or rebuild runs, so the records and MySQL's answer are read together; instances that sweep
 * at once settle each record once, since every step is a script that does nothing when the record is gone.
 */
@SyncMode
@Component
public class SyncUnitSweeper extends PeriodicTask implements CommittedUnits {

    private static final Logger log = LoggerFactory.getLogger(SyncUnitSweeper.class);

    private final SyncUnits units;
    private final OrdersByVoucher orders;
    private final SeckillLocks locks;
    private final SaleWindowCache windows;
    private final SyncUnitSettings settings;
    private final SweepDecision decision;
    private final Clock clock;
    private final MeterRegistry meters;

    SyncUnitSweeper(SyncUnits units, OrdersByVoucher orders, SeckillLocks locks, SaleWindowCache windows,
            SyncUnitSettings settings, Clock clock, MeterRegistry meters) {
        // Stopped after the web server: this instance's own requests have settled their units by then.
        super("sync-unit-sweeper", settings.sweepEvery(), ShutdownOrder.SYNC_UNIT_SWEEPER);
        this.units = units;
        this.orders = orders;
        this.locks = locks;
        this.windows = windows;
        this.settings = settings;
        this.decision = new SweepDecision(settings.unitTimeout(), settings.keepReturned());
        this.clock = clock;
        this.meters = meters;
    }

    /** One sweep over every registered voucher; a voucher that fails (busy, an outage) is tried again next time. */
    void sweep() {
        Map<Long, VoucherUnits> all = units.read(units.registeredVouchers());
        for (VoucherUnits snapshot : all.values()) {
            try {
                sweep(snapshot);
            } catch (RuntimeException e) {
                log.debug("Sync units of voucher {} not swept this time: {}", snapshot.voucherId(), e.toString());
            }
        }
    }

    private void sweep(VoucherUnits snapshot) {
        long voucherId = snapshot.voucherId();
        if (snapshot.isEmpty()) {
            forgetIfOver(snapshot);
            return;
        }
        if (decision.toLookUp(snapshot, clock.millis()).isEmpty()) {
            return;
        }
        try (HeldLock voucherLock = locks.lockVoucher(voucherId)) {
            // Read again under the lock: requests finished meanwhile, another instance may have swept.
            VoucherUnits current = units.read(voucherId);
            long now = clock.millis();
            Set<Long> committed = orders.inMySql(voucherId, decision.toLookUp(current, now));
            for (SweepDecision.Action action : decision.decide(current, committed, now)) {
                apply(voucherId, action, now);
            }
        }
    }

    private void apply(long voucherId, SweepDecision.Action action, long now) {
        Unit unit = action.unit();
        switch (action.kind()) {
            case SETTLE -> {
                switch (units.settle(voucherId, unit.shopperId(), unit.orderId(), true)) {
                    case IN_FLIGHT -> {
                        count("settled");
                        log.warn("Sync unit of order {} (voucher {}, shopper {}) settled: the order is in MySQL, its "
                                + "request never finished", unit.orderId(), voucherId, unit.shopperId());
                    }
                    case RETURNED -> {
                        count("taken-again");
                        log.warn("Sync unit of order {} (voucher {}, shopper {}) taken from stock again: its request "
                                + "committed after the unit had been returned", unit.orderId(), voucherId, unit.shopperId());
                    }
                    case NO_RECORD -> { }
                }
            }
            case RETURN -> {
                SyncUnits.Returned returned = units.returnUnit(voucherId, unit.orderId(), now);
                if (returned == SyncUnits.Returned.RETURNED) {
                    count("returned");
                    log.warn("Sync unit of order {} (voucher {}, shopper {}) returned to stock: taken {} ms ago by a "
                            + "request that never finished, no order in MySQL", unit.orderId(), voucherId,
                            unit.shopperId(), now - unit.atMillis());
                }
            }
            case DROP -> {
                units.dropReturned(voucherId, unit.orderId());
                count("forgotten");
            }
        }
    }

    /**
     * For a stock reset or a rebuild, which re-base the counter from MySQL next: the units of orders that
     * committed are in MySQL's numbers already, so their records go (their shoppers become buyers) whatever
     * their age, and the remaining units in flight are the ones the counter must leave out. Call under the
     * voucher's lock.
     */
    @Override
    public void settleCommitted(long voucherId) {
        VoucherUnits current = units.read(voucherId);
        if (current.isEmpty()) {
            return;
        }
        List<Unit> all = new ArrayList<>(current.inFlight());
        all.addAll(current.returned());
        Set<Long> committed = orders.inMySql(voucherId, all.stream().map(Unit::orderId).toList());
        for (Unit unit : all) {
            if (committed.contains(unit.orderId())) {
                units.settle(voucherId, unit.shopperId(), unit.orderId(), false);
            }
        }
    }

    private void forgetIfOver(VoucherUnits snapshot) {
        long voucherId = snapshot.voucherId();
        // A voucher that no longer exists is over too.
        boolean over = windows.find(voucherId).map(window -> decision.canForget(snapshot, window.end(), clock.instant()))
                .orElse(true);
        if (over) {
            units.unregister(voucherId);
        }
    }

    private void count(String outcome) {
        meters.counter("seckill.sync.units.swept", "outcome", outcome).increment();
    }

    @Override
    protected void runOnce() {
        sweep();
    }
}
