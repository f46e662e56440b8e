package dev.seckill.salestate;

import dev.seckill.platform.LuaScript;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.redisson.api.RBatch;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;
import org.springframework.stereotype.Component;

/**
 * The units the sync path took from a voucher's stock counter for requests that have not finished:
 * one record per request, written by the take itself ({@code purchase.lua}, holding), dropped by the request's
 * commit ({@link #settle}) or give-back ({@code stock-return.lua}). A record that outlives every request
 * belongs to a request that died; the sweeper ({@code dev.seckill.sale.sync}) settles it (order in MySQL)
 * or returns its unit ({@link #returnUnit}). Every step is one script that checks the record first, so
 * whoever comes second (a request outliving the timeout, another instance's sweeper, a client resending
 * a script) changes nothing.
 * <p>
 * Vouchers with records are listed in {@link #REGISTRY} for the sweepers: each instance adds a voucher
 * before its first take of it, so no record exists that the registry does not lead to.
 */
@Component
public class SyncUnits {

    /** Vouchers whose sync units the sweepers look at. Not hash-tagged: no script touches it. */
    static final String REGISTRY = "seckill:sync-unit-vouchers";

    private final RedissonClient redisson;
    private final LuaScript settle;
    private final LuaScript returnUnit;
    private final Set<Long> registeredHere = ConcurrentHashMap.newKeySet();

    SyncUnits(RedissonClient redisson) {
        this.redisson = redisson;
        this.settle = new LuaScript(redisson, "sync-unit-settle.lua");
        this.returnUnit = new LuaScript(redisson, "sync-unit-return.lua");
    }

    /** A unit's record: the order id its request would commit with, its shopper, when it was taken or returned. */
    public record Unit(long orderId, long shopperId, long atMillis) {

        static Unit parse(String orderId, String value) {
            int colon = value.indexOf(':');
            return new Unit(Long.parseLong(orderId), Long.parseLong(value.substring(colon + 1)),
                    Long.parseLong(value.substring(0, colon)));
        }
    }

    /** One voucher's records: units held by requests, and units the sweeper returned (kept for a while). */
    public record VoucherUnits(long voucherId, List<Unit> inFlight, List<Unit> returned) {

        public boolean isEmpty() {
            return inFlight.isEmpty() && returned.isEmpty();
        }
    }

    /** Before this instance's first take of the voucher: one SADD per voucher and instance. */
    public void registerOnce(long voucherId) {
        if (!registeredHere.contains(voucherId)) {
            register(voucherId);
            registeredHere.add(voucherId);
        }
    }

    /** Puts the voucher in the sweepers' registry (also after a rebuild: a Redis that lost data lost it too). */
    public void register(long voucherId) {
        redisson.getSet(REGISTRY, StringCodec.INSTANCE).add(Long.toString(voucherId));
    }

    /** Takes a voucher out of the registry: call only once no request can take one of its units any more. */
    public void unregister(long voucherId) {
        redisson.getSet(REGISTRY, StringCodec.INSTANCE).remove(Long.toString(voucherId));
    }

    public Set<Long> registeredVouchers() {
        Set<Long> vouchers = new HashSet<>();
        for (Object id : redisson.getSet(REGISTRY, StringCodec.INSTANCE).readAll()) {
            vouchers.add(Long.parseLong(id.toString()));
        }
        return vouchers;
    }

    /** The records of these vouchers, read in one round trip. */
    public Map<Long, VoucherUnits> read(Collection<Long> voucherIds) {
        List<Long> order = new ArrayList<>(voucherIds);
        if (order.isEmpty()) {
            return Map.of();
        }
        RBatch batch = redisson.createBatch();
        for (long voucherId : order) {
            batch.getMap(VoucherKeys.syncUnits(voucherId), StringCodec.INSTANCE).readAllMapAsync();
            batch.getMap(VoucherKeys.syncUnitsReturned(voucherId), StringCodec.INSTANCE).readAllMapAsync();
        }
        List<?> answers = batch.execute().getResponses();
        Map<Long, VoucherUnits> units = new LinkedHashMap<>();
        for (int i = 0; i < order.size(); i++) {
            units.put(order.get(i), new VoucherUnits(order.get(i), units(answers.get(2 * i)), units(answers.get(2 * i + 1))));
        }
        return units;
    }

    public VoucherUnits read(long voucherId) {
        return read(List.of(voucherId)).get(voucherId);
    }

    /** Units held by sync requests right now (for the audit). */
    public long inFlight(long voucherId) {
        return redisson.getMap(VoucherKeys.syncUnits(voucherId), StringCodec.INSTANCE).size();
    }

    /**
     * The unit's order committed: drops its record and makes the shopper a buyer of the voucher, with the
     * order in the shopper -> order index. A unit the sweeper had returned is taken again when
     * {@code takeReturnedAgain}, i.e. unless the caller re-bases the counter from MySQL next.
     */
    public Settled settle(long voucherId, long shopperId, long orderId, boolean takeReturnedAgain) {
        long result = settle.evalLong(List.of(VoucherKeys.stock(voucherId), VoucherKeys.buyers(voucherId),
                VoucherKeys.shopperOrders(voucherId), VoucherKeys.syncUnits(voucherId),
                VoucherKeys.syncUnitsReturned(voucherId)), shopperId, orderId, takeReturnedAgain ? "1" : "0");
        return switch ((int) result) {
            case 0 -> Settled.NO_RECORD;
            case 1 -> Settled.IN_FLIGHT;
            case 2 -> Settled.RETURNED;
            default -> throw new IllegalStateException("sync-unit-settle.lua answered " + result);
        };
    }

    /** sync-unit-settle.lua's answers, named one by one: never by their position in this enum. */
    public enum Settled { NO_RECORD, IN_FLIGHT, RETURNED }

    /** Returns the unit of a request that never finished, unless its record is gone (see sync-unit-return.lua). */
    public Returned returnUnit(long voucherId, long orderId, long returnedAtMillis) {
        long result = returnUnit.evalLong(List.of(VoucherKeys.stock(voucherId), VoucherKeys.syncUnits(voucherId),
                VoucherKeys.syncUnitsReturned(voucherId)), orderId, returnedAtMillis);
        return result == 1 ? Returned.RETURNED : result == 0 ? Returned.NO_RECORD : Returned.NOT_CACHED;
    }

    public enum Returned { RETURNED, NO_RECORD, NOT_CACHED }

    /** Forgets a returned unit whose request can no longer commit. */
    public void dropReturned(long voucherId, long orderId) {
        redisson.getMap(VoucherKeys.syncUnitsReturned(voucherId), StringCodec.INSTANCE).fastRemove(Long.toString(orderId));
    }

    private static List<Unit> units(Object answer) {
        List<Unit> units = new ArrayList<>();
        if (answer instanceof Map<?, ?> entries) {
            entries.forEach((orderId, value) -> units.add(Unit.parse(String.valueOf(orderId), String.valueOf(value))));
        }
        return units;
    }
}
