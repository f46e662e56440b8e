package dev.seckill.sale.ticket;

import java.time.Duration;
import java.util.List;

import dev.seckill.platform.LuaScript;
import dev.seckill.salestate.VoucherKeys;
import org.redisson.api.RedissonClient;
import org.springframework.stereotype.Component;

/**
 * Purchase tickets in Redis ({@code sale/ticket/ticket-issue.lua}): issued here, spent by the purchase script
 * ({@code sale/buying/purchase.lua}) in the same call that takes the unit, so a purchase pays no extra round trip.
 */
@Component
public class TicketStore {

    private final LuaScript issue;

    public TicketStore(RedissonClient redisson) {
        this.issue = new LuaScript(redisson, "sale/ticket/ticket-issue.lua");
    }

    /**
     * Stores {@code ticket} as the shopper's ticket for the voucher for {@code lifetime}, replacing any earlier
     * one, and spends {@code solvedChallenge} (null when the voucher asks for none) for {@code remembered}.
     *
     * @return false when the challenge was spent before: then nothing was written
     */
    public boolean issue(long voucherId, long shopperId, String ticket, Duration lifetime, String solvedChallenge,
            Duration remembered) {
        List<Object> keys = solvedChallenge == null
                ? List.of(VoucherKeys.ticket(voucherId, shopperId))
                : List.of(VoucherKeys.ticket(voucherId, shopperId), VoucherKeys.solvedChallenge(voucherId, solvedChallenge));
        return issue.evalLong(keys, ticket, lifetime.toMillis(), remembered.toMillis()) == 1;
    }
}
