package dev.seckill.salestate;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import dev.seckill.platform.LuaScript;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.stereotype.Component;

/**
 * The Redis half of giving an expired or cancelled order's unit back: once per order, whoever asks and however
 * often ({@code unit-return.lua}); the sold-out flags of every instance clear when a unit comes back, as they do
 * for a restock.
 */
@Component
public class UnitReturns {

    public enum Outcome {
        /** The unit is back in the counter now. */
        RETURNED,
        /** It had gone back before (a retry, another instance). */
        ALREADY_RETURNED,
        /**
         * No counter is cached (Redis lost it, or a rebuild is under way): nothing was added or marked. The rebuild
         * that sets the counter counts MySQL's stock, which holds the unit already.
         */
        NOT_CACHED
    }

    private final LuaScript giveBack;
    private final LuaScript mark;
    private final RedissonClient redisson;
    private final ApplicationEventPublisher events;

    UnitReturns(RedissonClient redisson, ApplicationEventPublisher events) {
        this.redisson = redisson;
        this.events = events;
        this.giveBack = new LuaScript(redisson, "unit-return.lua");
        this.mark = new LuaScript(redisson, "unit-return-mark.lua");
    }

    public Outcome giveBack(long voucherId, long orderId) {
        long answer = giveBack.evalLong(List.of(VoucherKeys.stock(voucherId), VoucherKeys.returnedUnits(voucherId)),
                Long.toString(orderId));
        if (answer == 1) {
            events.publishEvent(new StockCounterWritten(voucherId));
            return Outcome.RETURNED;
        }
        return answer == 0 ? Outcome.ALREADY_RETURNED : Outcome.NOT_CACHED;
    }

    /** For a rebuild from MySQL, before it sets the counter: these orders' units are in MySQL's stock already. */
    public void markReturned(long voucherId, Collection<Long> orderIds) {
        if (!orderIds.isEmpty()) {
            mark.evalLong(List.of(VoucherKeys.returnedUnits(voucherId)),
                    orderIds.stream().map(String::valueOf).toArray());
        }
    }

    /** Which of these orders' units Redis has not taken back yet (the audit's "returns on their way"). */
    public Set<Long> notReturned(long voucherId, Collection<Long> orderIds) {
        if (orderIds.isEmpty()) {
            return Set.of();
        }
        List<Long> ids = new ArrayList<>(orderIds);
        Set<String> in = new HashSet<>(redisson.<String>getSet(VoucherKeys.returnedUnits(voucherId), StringCodec.INSTANCE)
                .containsEach(ids.stream().map(String::valueOf).toList()));
        Set<Long> missing = new HashSet<>();
        for (Long id : ids) {
            if (!in.contains(id.toString())) {
                missing.add(id);
            }
        }
        return missing;
    }
}
