package dev.seckill.sale.internal;

import java.util.HashMap;
import java.util.Map;

import dev.seckill.SeckillSettings;
import dev.seckill.salestate.OrderStates;
import dev.seckill.sale.stream.OrderStream;
import dev.seckill.salestate.SyncUnits;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.stereotype.Component;

/**
 * Says so, as an error in the log before the web server takes a request, when this instance starts in one mode
 * while the other mode's work is left in Redis ({@link ModeLeftovers}): only the active path's beans exist, so
 * nothing here will finish it. It is not lost (the audit counts it as pending; an instance of the former mode
 * finishes it), but it waits. Not a refusal to start: while a cluster is switched one instance at a time, the
 * other instance's work in flight is exactly such a leftover, and it finishes it.
 */
@Component
class ModeSwitchCheck implements SmartInitializingSingleton {

    private static final Logger log = LoggerFactory.getLogger(ModeSwitchCheck.class);

    private final SeckillSettings settings;
    private final OrderStates states;
    private final OrderStream stream;
    private final SyncUnits units;

    ModeSwitchCheck(SeckillSettings settings, OrderStates states, OrderStream stream, SyncUnits units) {
        this.settings = settings;
        this.states = states;
        this.stream = stream;
        this.units = units;
    }

    @Override
    public void afterSingletonsInstantiated() {
        leftovers().warningFor(settings.mode()).ifPresent(warning ->
                log.error("Started with seckill.mode={}, but: {}", settings.mode().name().toLowerCase(), warning));
    }

    ModeLeftovers leftovers() {
        Map<Long, Long> pending = new HashMap<>();
        if (settings.mode() == SeckillSettings.Mode.SYNC) {
            states.registeredVouchers().forEach(voucher -> pending.put(voucher, stream.pendingOrders(voucher)));
        }
        Map<Long, Integer> held = new HashMap<>();
        if (settings.mode() == SeckillSettings.Mode.ASYNC) {
            units.read(units.registeredVouchers()).forEach((voucher, found) -> held.put(voucher, found.inFlight().size()));
        }
        return new ModeLeftovers(pending, held);
    }
}
