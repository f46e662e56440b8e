package dev.seckill.salestate;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiFunction;

import dev.seckill.platform.LuaScript;
import org.redisson.api.RedissonClient;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.stereotype.Component;

/**
 * Puts the orders this instance accepted a moment ago ({@link AcceptedOrdersJournal}) back into a Redis master that
 * lacks them, through {@code failover-replay.lua}: an order the master has is left alone, one it lacks takes its unit
 * and buyer mark again and, when MySQL does not have it yet, is queued again for the consumers. Run by every instance
 * that saw the master change; idempotent, so two instances or two runs re-apply nothing twice.
 */
@Component
public class FailoverReplay {

    /** Orders per script call: one call holds Redis for microseconds per order. */
    static final int CHUNK = 200;

    private final AcceptedOrdersJournal journal;
    private final LuaScript replay;
    private final OrderStream streams;

    FailoverReplay(RedissonClient redisson, AcceptedOrdersJournal journal, OrderStream streams) {
        this.journal = journal;
        this.replay = new LuaScript(redisson, "failover-replay.lua");
        this.streams = streams;
    }

    /** How many orders the journal holds now. */
    public int journaled() {
        return journal.size();
    }

    /** The journal the async path writes ({@code seckill.redis.failover.*}). */
    @Configuration(proxyBeanMethods = false)
    static class JournalConfiguration {

        @Bean
        AcceptedOrdersJournal acceptedOrdersJournal(FailoverSettings settings) {
            return new AcceptedOrdersJournal(settings.journalWindow(), settings.journalMaxOrders(), System::nanoTime);
        }
    }

    /**
     * What the replay found for one voucher's journaled orders.
     *
     * @param present   the master had them
     * @param reapplied the master lacked them; they are back (and queued again if MySQL lacked them too)
     * @param lost      answered 202, not in MySQL, and not re-applicable (no unit left, the shopper bought again, no
     *                  counter, a reset under way): gone
     * @param dropped   the same, but the shopper was told 503 {@code order-unconfirmed}: no promise broken
     * @param resold    in MySQL, but the new master had sold their unit again: a later order will be refused by MySQL
     */
    public record Replayed(long voucherId, int present, int reapplied, int lost, int resold, int dropped,
            List<Long> lostOrderIds) {
    }

    /**
     * Replays the journal into the master Redis has now. {@code inMySql} answers, for a voucher and its journaled
     * order ids, which MySQL already has.
     */
    public List<Replayed> replay(BiFunction<Long, List<Long>, Set<Long>> inMySql) {
        List<Replayed> results = new ArrayList<>();
        for (Map.Entry<Long, List<AcceptedOrdersJournal.Entry>> voucher : journal.byVoucher().entrySet()) {
            results.add(replay(voucher.getKey(), voucher.getValue(), inMySql));
        }
        return results;
    }

    private Replayed replay(long voucherId, List<AcceptedOrdersJournal.Entry> orders,
            BiFunction<Long, List<Long>, Set<Long>> inMySql) {
        // The new master may lack the stream's group too: an order queued again must find its consumers.
        streams.register(voucherId);
        Set<Long> written = inMySql.apply(voucherId, orders.stream().map(AcceptedOrdersJournal.Entry::orderId).toList());
        int present = 0;
        int reapplied = 0;
        int resold = 0;
        int dropped = 0;
        List<Long> lost = new ArrayList<>();
        List<Object> keys = List.of(VoucherKeys.stock(voucherId), VoucherKeys.buyers(voucherId),
                VoucherKeys.shopperOrders(voucherId), VoucherKeys.resetFence(voucherId), VoucherKeys.pending(voucherId),
                VoucherKeys.orders(voucherId));
        for (int from = 0; from < orders.size(); from += CHUNK) {
            List<AcceptedOrdersJournal.Entry> chunk = orders.subList(from, Math.min(orders.size(), from + CHUNK));
            Object[] args = new Object[4 * chunk.size()];
            for (int i = 0; i < chunk.size(); i++) {
                AcceptedOrdersJournal.Entry order = chunk.get(i);
                args[4 * i] = order.shopperId();
                args[4 * i + 1] = order.orderId();
                args[4 * i + 2] = order.atMillis();
                args[4 * i + 3] = written.contains(order.orderId()) ? "1" : "0";
            }
            List<Object> answers = replay.evalList(keys, args);
            for (int i = 0; i < answers.size(); i++) {
                switch (((Number) answers.get(i)).intValue()) {
                    case 0 -> present++;
                    case 1 -> reapplied++;
                    case 2 -> {
                        if (chunk.get(i).confirmed()) {
                            lost.add(chunk.get(i).orderId());
                        } else {
                            dropped++;
                        }
                    }
                    case 3 -> resold++;
                    default -> throw new IllegalStateException("failover-replay.lua answered " + answers.get(i));
                }
            }
        }
        return new Replayed(voucherId, present, reapplied, lost.size(), resold, dropped, List.copyOf(lost));
    }
}
