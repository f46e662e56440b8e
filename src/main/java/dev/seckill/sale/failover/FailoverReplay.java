package dev.seckill.sale.failover;

import dev.seckill.sale.stream.OrderStream;

import dev.seckill.salestate.VoucherKeys;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.function.LongUnaryOperator;

import dev.seckill.platform.LuaScript;
import org.redisson.api.RedissonClient;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.stereotype.Component;

/**
 * Puts the orders this instance accepted a moment ago ({@link AcceptedOrdersJournal}) back into a Redis master that
 * lacks them, through {@code failover-replay.lua}: an order the master has is left alone, one it lacks takes its unit
 * and buyer mark again and, when MySQL does not have it yet, is queued again for the consumers. Run by every instance
 * that saw the master change; idempotent, so two instances or two runs re-apply nothing twice.
 * <p>
 * An order of an earlier generation of the sale is left out: a stock reset that deleted the orders (a fresh sale)
 * came after it, and it is no longer the sale's. The reset may have run on another instance, so the generation is
 * checked where the replay happens, against MySQL's (committed before Redis's) and, in the script, Redis's (which
 * the reset writes with its counter, so a reset between the two is seen too).
 */
@Component
class FailoverReplay {

    /** Orders per script call: one call holds Redis for microseconds per order. */
    static final int CHUNK = 200;

    private final AcceptedOrdersJournal journal;
    private final LuaScript replay;
    private final OrderStream streams;
    private final Duration journalWindow;

    @Autowired
    FailoverReplay(RedissonClient redisson, AcceptedOrdersJournal journal, OrderStream streams, FailoverSettings settings) {
        this(redisson, journal, streams, settings.journalWindow());
    }

    FailoverReplay(RedissonClient redisson, AcceptedOrdersJournal journal, OrderStream streams, Duration journalWindow) {
        this.journal = journal;
        this.journalWindow = journalWindow;
        this.replay = new LuaScript(redisson, "sale/failover/failover-replay.lua");
        this.streams = streams;
    }

    /** The journal the async path writes ({@code seckill.redis.failover.*}). */
    @Configuration(proxyBeanMethods = false)
    static class JournalConfiguration {

        /** On one server, which never fails over, a journal that keeps nothing: the order line pays for no lock. */
        @Bean
        AcceptedOrdersJournal acceptedOrdersJournal(FailoverSettings settings, RedissonClient redisson) {
            return RedisDeployment.failsOver(redisson)
                    ? new AcceptedOrdersJournal(settings.journalWindow(), settings.journalMaxOrders(), System::nanoTime)
                    : AcceptedOrdersJournal.keepingNothing();
        }
    }

    /**
     * What the replay found for one voucher's journaled orders.
     *
     * @param present   the master had them, or what came after them (given up, their unit returned, the shopper's
     *                  later order that MySQL refuses as a duplicate)
     * @param reapplied the master lacked them; they are back (and queued again if MySQL lacked them too)
     * @param lost      answered 202, not in MySQL, and not re-applicable (no unit left, the shopper bought again, no
     *                  counter, a reset under way): gone
     * @param dropped   the same, but the shopper was told 503 {@code order-unconfirmed}: no promise broken
     * @param resold    in MySQL, but the new master had sold their unit again: a later order, answered 202, will be
     *                  refused by MySQL (the counter is restored below zero, so that its unit nets to none)
     * @param voided    accepted in an earlier generation of the sale: a stock reset deleted the orders since, so
     *                  nothing of them comes back
     */
    public record Replayed(long voucherId, int present, int reapplied, int lost, int resold, int dropped, int voided,
            List<Long> lostOrderIds) {
    }

    /** How far back the journal reaches ({@code seckill.redis.failover.journal-window}). */
    public Duration journalWindow() {
        return journalWindow;
    }

    /** What the journal holds now: a failover's replay keeps it until it succeeds, however long that takes. */
    public AcceptedOrdersJournal.Snapshot journaled() {
        return journal.snapshot();
    }

    /**
     * Replays {@code orders} into the master Redis has now. {@code inMySql} answers, for a voucher and its journaled
     * order ids, which MySQL already has; {@code saleGeneration}, for a voucher, the generation of its sale MySQL has
     * committed.
     */
    public List<Replayed> replay(AcceptedOrdersJournal.Snapshot orders, BiFunction<Long, List<Long>, Set<Long>> inMySql,
            LongUnaryOperator saleGeneration) {
        List<Replayed> results = new ArrayList<>();
        for (Map.Entry<Long, List<AcceptedOrdersJournal.Entry>> voucher : orders.byVoucher().entrySet()) {
            results.add(replay(voucher.getKey(), voucher.getValue(), inMySql, saleGeneration));
        }
        return results;
    }

    private Replayed replay(long voucherId, List<AcceptedOrdersJournal.Entry> journaled,
            BiFunction<Long, List<Long>, Set<Long>> inMySql, LongUnaryOperator saleGeneration) {
        Tally tally = new Tally();
        // MySQL first: a fresh sale commits its generation there before it writes Redis's, and the new master may
        // never have received Redis's.
        long sale = saleGeneration.applyAsLong(voucherId);
        List<AcceptedOrdersJournal.Entry> orders = journaled.stream().filter(order -> order.saleGeneration() >= sale)
                .toList();
        tally.voided = journaled.size() - orders.size();
        if (orders.isEmpty()) {
            return new Replayed(voucherId, 0, 0, 0, 0, 0, tally.voided, List.of());
        }
        // The new master may lack the stream's group too: an order queued again must find its consumers.
        streams.register(voucherId);
        Set<Long> written = inMySql.apply(voucherId, orders.stream().map(AcceptedOrdersJournal.Entry::orderId).toList());
        List<AcceptedOrdersJournal.Entry> unplaced = run(voucherId, orders, written, tally);
        long saleNow = unplaced.isEmpty() ? sale : saleGeneration.applyAsLong(voucherId);
        if (saleNow > sale) {
            // A fresh sale began while the script ran (the reset's fence stopped it placing them): not lost, gone
            // with the sale they belonged to.
            List<AcceptedOrdersJournal.Entry> earlier = unplaced.stream()
                    .filter(order -> order.saleGeneration() < saleNow).toList();
            forget(earlier, tally);
            tally.voided += earlier.size();
            unplaced = unplaced.stream().filter(order -> order.saleGeneration() >= saleNow).toList();
        }
        if (!unplaced.isEmpty()) {
            // A consumer still working from the old master may have committed one meanwhile: asked before the script,
            // MySQL did not have it. Such an order is restored like any order MySQL has.
            Set<Long> writtenSince = inMySql.apply(voucherId,
                    unplaced.stream().map(AcceptedOrdersJournal.Entry::orderId).toList());
            List<AcceptedOrdersJournal.Entry> committed = unplaced.stream()
                    .filter(order -> writtenSince.contains(order.orderId())).toList();
            if (!committed.isEmpty()) {
                forget(committed, tally);
                run(voucherId, committed, writtenSince, tally);
            }
        }
        return new Replayed(voucherId, tally.present, tally.reapplied, tally.lost.size(), tally.resold, tally.dropped,
                tally.voided, List.copyOf(tally.lost));
    }

    /** Takes back the lost or dropped count of orders {@link #run} could not place, to be counted again otherwise. */
    private static void forget(List<AcceptedOrdersJournal.Entry> unplaced, Tally tally) {
        tally.lost.removeAll(unplaced.stream().filter(AcceptedOrdersJournal.Entry::confirmed)
                .map(AcceptedOrdersJournal.Entry::orderId).toList());
        tally.dropped -= (int) unplaced.stream().filter(order -> !order.confirmed()).count();
    }

    private static final class Tally {
        int present;
        int reapplied;
        int resold;
        int dropped;
        int voided;
        final List<Long> lost = new ArrayList<>();
    }

    /** Runs the script over {@code orders}, adding its answers to {@code tally}; returns the orders it could not place. */
    private List<AcceptedOrdersJournal.Entry> run(long voucherId, List<AcceptedOrdersJournal.Entry> orders,
            Set<Long> written, Tally tally) {
        List<Object> keys = List.of(VoucherKeys.stock(voucherId), VoucherKeys.buyers(voucherId),
                VoucherKeys.shopperOrders(voucherId), VoucherKeys.resetFence(voucherId), VoucherKeys.pending(voucherId),
                VoucherKeys.orders(voucherId), VoucherKeys.failed(voucherId), VoucherKeys.returnedUnits(voucherId),
                VoucherKeys.sale(voucherId));
        List<AcceptedOrdersJournal.Entry> unplaced = new ArrayList<>();
        for (int from = 0; from < orders.size(); from += CHUNK) {
            List<AcceptedOrdersJournal.Entry> chunk = orders.subList(from, Math.min(orders.size(), from + CHUNK));
            Object[] args = new Object[5 * chunk.size()];
            for (int i = 0; i < chunk.size(); i++) {
                AcceptedOrdersJournal.Entry order = chunk.get(i);
                args[5 * i] = order.shopperId();
                args[5 * i + 1] = order.orderId();
                args[5 * i + 2] = order.atMillis();
                args[5 * i + 3] = written.contains(order.orderId()) ? "1" : "0";
                args[5 * i + 4] = order.saleGeneration();
            }
            List<Object> answers = replay.evalList(keys, args);
            for (int i = 0; i < answers.size(); i++) {
                AcceptedOrdersJournal.Entry order = chunk.get(i);
                switch (((Number) answers.get(i)).intValue()) {
                    case 0 -> tally.present++;
                    case 1 -> tally.reapplied++;
                    case 2 -> {
                        unplaced.add(order);
                        if (order.confirmed()) {
                            tally.lost.add(order.orderId());
                        } else {
                            tally.dropped++;
                        }
                    }
                    case 3 -> tally.resold++;
                    case 4 -> tally.voided++;
                    default -> throw new IllegalStateException("failover-replay.lua answered " + answers.get(i));
                }
            }
        }
        return unplaced;
    }
}
