package dev.seckill.salestate;

import dev.seckill.platform.LuaScript;

import java.util.List;
import java.util.OptionalLong;
import java.util.UUID;

import dev.seckill.refusal.Reason;
import dev.seckill.refusal.Refusal;
import org.redisson.api.RBucket;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.stereotype.Component;

/**
 * The voucher stock counters in Redis: the seckill path's fast gate. MySQL stays the truth; a unit is
 * taken by the sale's purchase script before an order is attempted and given back here if the order does not
 * commit, so at most the remaining stock's worth of requests ever reach the voucher lock and the database. Every
 * unit taken is recorded under its request's order id until the request settles it ({@link SyncUnits}), so that
 * one whose request died is returned.
 */
@Component
public class StockCache {

    private static final Logger log = LoggerFactory.getLogger(StockCache.class);

    private final RedissonClient redisson;
    private final StockSettings settings;
    private final LuaScript giveBack;
    private final LuaScript rebase;
    private final LuaScript fence;
    private final LuaScript reset;
    private final LuaScript unfence;
    private final SyncUnits units;
    private final ApplicationEventPublisher events;

    StockCache(RedissonClient redisson, StockSettings settings, SyncUnits units, ApplicationEventPublisher events) {
        this.redisson = redisson;
        this.settings = settings;
        this.units = units;
        this.events = events;
        this.giveBack = new LuaScript(redisson, "stock-return.lua");
        this.rebase = new LuaScript(redisson, "stock-rebase.lua");
        this.fence = new LuaScript(redisson, "stock-fence.lua");
        this.reset = new LuaScript(redisson, "stock-reset.lua");
        this.unfence = new LuaScript(redisson, "stock-unfence.lua");
    }

    static String key(long voucherId) {
        return VoucherKeys.stock(voucherId);
    }

    /** A new voucher's counter (no request can hold one of its units yet). A reset writes through its {@link ResetFence}. */
    public void set(long voucherId, int stock) {
        counter(voucherId).set(Integer.toString(stock));
        events.publishEvent(new StockCounterWritten(voucherId));
    }

    /**
     * Sets the counter to what MySQL has left, less the units sync requests hold right now, and the sale's generation
     * to MySQL's, atomically (stock-rebase.lua); returns the counter set. Call under the voucher's lock, after the
     * units of committed orders were settled (they are in MySQL's numbers already).
     */
    public long rebase(long voucherId, long leftInMySql, long saleGeneration) {
        return rebase.evalLong(List.of(key(voucherId), VoucherKeys.syncUnits(voucherId), VoucherKeys.sale(voucherId)),
                leftInMySql, saleGeneration);
    }

    /** Drops the counter: every order is refused (not cached) until a rebuild sets it again. */
    public void forget(long voucherId) {
        counter(voucherId).delete();
    }

    public OptionalLong read(long voucherId) {
        String value = counter(voucherId).get();
        return value == null ? OptionalLong.empty() : OptionalLong.of(Long.parseLong(value));
    }

    /** One GET: true only when the counter exists and is at zero (a missing counter is not "sold out"). */
    public boolean isSoldOut(long voucherId) {
        OptionalLong stock = read(voucherId);
        return stock.isPresent() && stock.getAsLong() <= 0;
    }

    /**
     * After the order committed: remembers its shopper, so a repeat request is refused before it takes a
     * unit, and the order in the shopper -> order index the async path keeps too, so that the index never
     * names another order of a buyer; drops the unit's record (and takes the unit again if the sweeper had
     * returned it meanwhile). One round trip.
     */
    public void addBuyer(long voucherId, long shopperId, long orderId) {
        units.settle(voucherId, shopperId, orderId, true);
    }

    /** The order did not commit: its unit goes back, unless the sweeper returned it already. */
    public void giveBack(long voucherId, long orderId) {
        giveBack.evalLong(List.of(key(voucherId), VoucherKeys.syncUnits(voucherId),
                VoucherKeys.syncUnitsReturned(voucherId)), orderId);
    }

    private RBucket<String> counter(long voucherId) {
        return redisson.getBucket(key(voucherId), StringCodec.INSTANCE);
    }

    /**
     * Fences the voucher for a stock reset, atomically: refused while accepted orders are still on their way
     * to MySQL (orders-pending) or while another reset holds the fence (voucher-busy). Until the fence is
     * lifted, by {@link ResetFence#write} or by closing it, every order of the voucher is refused as busy,
     * so none can interleave with the reset; the fence expires by itself after
     * {@code seckill.stock.reset-fence} if this instance dies meanwhile. Call under the voucher's lock.
     */
    public ResetFence fence(long voucherId) {
        String token = UUID.randomUUID().toString();
        long answer = fence.evalLong(List.of(VoucherKeys.resetFence(voucherId), VoucherKeys.pending(voucherId)),
                token, settings.resetFence().toMillis());
        if (answer > 0) {
            throw new Refusal(Reason.ORDERS_PENDING,
                    answer + " accepted orders are not in MySQL yet; reset once they are");
        }
        if (answer < 0) {
            throw new Refusal(Reason.VOUCHER_BUSY, "Another stock reset of this voucher is under way");
        }
        return new ResetFence(this, voucherId, token);
    }

    /** Returns whether the fence was still this reset's (else it expired before the write). */
    boolean writeReset(long voucherId, String token, int stock, boolean freshSale, long saleGeneration) {
        boolean held = reset.evalLong(List.of(key(voucherId), VoucherKeys.pending(voucherId),
                VoucherKeys.resetFence(voucherId), VoucherKeys.buyers(voucherId), VoucherKeys.failed(voucherId),
                VoucherKeys.shopperOrders(voucherId), VoucherKeys.syncUnits(voucherId),
                VoucherKeys.returnedUnits(voucherId), VoucherKeys.sale(voucherId)), token, stock,
                freshSale ? "1" : "0", saleGeneration) == 1;
        events.publishEvent(new StockCounterWritten(voucherId));
        if (!held) {
            log.warn("The stock reset of voucher {} outlived its fence (seckill.stock.reset-fence = {}): orders "
                    + "accepted meanwhile were counted against the new stock", voucherId, settings.resetFence());
        }
        return held;
    }

    void liftFence(long voucherId, String token) {
        unfence.evalLong(List.of(VoucherKeys.resetFence(voucherId)), token);
    }
}
