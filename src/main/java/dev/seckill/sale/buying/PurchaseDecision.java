package dev.seckill.sale.buying;

import dev.seckill.platform.LuaScript;
import dev.seckill.salestate.StockCache;
import dev.seckill.salestate.SyncUnits;
import dev.seckill.salestate.VoucherKeys;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import org.redisson.api.RedissonClient;
import org.springframework.stereotype.Component;

/**
 * The one purchase decision of both order paths (purchase.lua): one order of checks, one set of answers,
 * so that the same situation gets the same answer in either mode. Only what is kept of an accepted order
 * differs ({@link Keeping}).
 */
@Component
public class PurchaseDecision {

    static final String SCRIPT = "sale/buying/purchase.lua";

    private final LuaScript purchase;
    /**
     * The same script for the asynchronous calls, which Redisson sends once ({@link LuaScript#sentOnce}): their
     * caller retries, knowing of each attempt whether it may have run the script, so that a call that finally fails
     * can say whether the order may have been taken. The blocking call (the sync path) keeps Redisson's retries: a
     * unit it took and never heard of is returned by the sweeper.
     */
    private final LuaScript purchaseOnce;

    public PurchaseDecision(RedissonClient redisson) {
        this.purchase = new LuaScript(redisson, SCRIPT);
        this.purchaseOnce = LuaScript.sentOnce(redisson, SCRIPT);
    }

    /** What an accepted order leaves in Redis. */
    public enum Keeping {
        /** Async: the shopper becomes a buyer at once and the order is queued on the voucher's stream for MySQL. */
        QUEUE("queue"),
        /**
         * Sync: the unit is held under the order's id until the request commits ({@link SyncUnits#settle}) or
         * gives it back ({@link StockCache#giveBack}); a request that dies leaves it to the sweeper.
         */
        HOLD("hold");

        private final String argument;

        Keeping(String argument) {
            this.argument = argument;
        }
    }

    public enum Outcome {
        /** A unit was taken for this order (or had been, by the same order: a resent call). */
        ACCEPTED,
        SOLD_OUT,
        ALREADY_BOUGHT,
        /** Redis has no stock counter for the voucher (it lost its data): rebuild it, then ask again. */
        NOT_CACHED,
        /** A stock reset holds the voucher's fence: nothing was taken, try again in a moment. */
        RESETTING,
        /** Tickets are asked and the order carried no valid one of its shopper's for this voucher: nothing taken. */
        NO_TICKET;

        /** purchase.lua's numeric answers, named one by one: never by their position in this enum. */
        static Outcome ofCode(long code) {
            return switch ((int) code) {
                case 0 -> ACCEPTED;
                case 1 -> SOLD_OUT;
                case 2 -> ALREADY_BOUGHT;
                case 3 -> NOT_CACHED;
                case 4 -> RESETTING;
                case 5 -> NO_TICKET;
                default -> throw new IllegalStateException("purchase.lua answered " + code);
            };
        }
    }

    /**
     * One order as the script takes it; {@code atMillis} is the caller's clock; {@code ticket} what the request
     * carried (null for none), read only when tickets are asked.
     */
    public record Order(long shopperId, long orderId, long atMillis, String ticket) {

        public Order(long shopperId, long orderId, long atMillis) {
            this(shopperId, orderId, atMillis, null);
        }
    }

    /**
     * Whether an order must carry its shopper's purchase ticket ({@code TicketStore}) to take a unit. Refusals
     * (sold out, already bought) never need one.
     */
    public enum Tickets {
        ASKED("tickets"),
        /** Asked, and each is a waiting room's admission: spending it closes the shopper's open admission too. */
        ROOM("room"),
        NOT_ASKED("open");

        private final String argument;

        Tickets(String argument) {
            this.argument = argument;
        }

        boolean carried() {
            return this != NOT_ASKED;
        }
    }

    /**
     * What was decided for one order. For {@code ALREADY_BOUGHT}, {@code existingOrderId} is the shopper's
     * order when Redis knows it, else 0 (look in MySQL).
     */
    public record Decision(Outcome outcome, long existingOrderId) {

        public static Decision of(Outcome outcome) {
            return new Decision(outcome, 0);
        }

        static Decision ofAnswer(Object answer) {
            if (answer instanceof Number code) {
                return of(Outcome.ofCode(code.longValue()));
            }
            // The only string answer is the id of the shopper's existing order.
            return new Decision(Outcome.ALREADY_BOUGHT, Long.parseLong(answer.toString()));
        }
    }

    /**
     * What was decided, and in which generation of the sale ({@link VoucherKeys#sale}: a stock reset that deletes
     * the orders starts a new one): what a failover's replay needs to know of an accepted order.
     */
    public record Decided(List<Decision> decisions, long saleGeneration) {
    }

    /** What was decided, in which generation of the sale, and how many replicas confirmed having the script's writes. */
    public record Replicated(List<Decision> decisions, long saleGeneration, int replicas) {
    }

    /** Decides one order, blocking (the sync path, under the shopper's lock). */
    public Decision decide(long voucherId, Keeping keeping, Order order) {
        return decide(voucherId, keeping, Tickets.NOT_ASKED, order);
    }

    /** {@link #decide(long, Keeping, Order)}, with or without tickets. */
    public Decision decide(long voucherId, Keeping keeping, Tickets tickets, Order order) {
        List<Order> orders = List.of(order);
        return Decision.ofAnswer(purchase.evalList(keys(voucherId, keeping, tickets, orders),
                arguments(keeping, tickets, orders)).get(0));
    }

    /** Decides the orders in their order, in one call; completes on Redisson's thread. */
    public CompletableFuture<List<Decision>> decideAsync(long voucherId, Keeping keeping, List<Order> orders) {
        return decideAsync(voucherId, keeping, Tickets.NOT_ASKED, orders).thenApply(Decided::decisions);
    }

    /**
     * {@link #decideAsync(long, Keeping, List)}, with or without tickets, and the sale they were decided in. Sent
     * once: Redisson does not retry it (a resend is the caller's, and safe: the script answers an order it decided
     * before as accepted, taking nothing again).
     */
    public CompletableFuture<Decided> decideAsync(long voucherId, Keeping keeping, Tickets tickets, List<Order> orders) {
        return purchaseOnce.evalListAsync(keys(voucherId, keeping, tickets, orders), arguments(keeping, tickets, orders))
                .thenApply(answers -> decided(answers, orders.size()));
    }

    /**
     * {@link #decideAsync}, with a {@code WAIT replicas timeout} in the same pipelined batch: completes once
     * that many replicas have the writes, or after {@code timeout} with fewer. Sent once, as {@link #decideAsync}.
     */
    public CompletableFuture<Replicated> decideReplicatedAsync(long voucherId, Keeping keeping, Tickets tickets,
            List<Order> orders, int replicas, Duration timeout) {
        return purchaseOnce.evalListReplicatedAsync(replicas, timeout, keys(voucherId, keeping, tickets, orders),
                        arguments(keeping, tickets, orders))
                .thenApply(answer -> {
                    Decided decided = decided(answer.value(), orders.size());
                    return new Replicated(decided.decisions(), decided.saleGeneration(), answer.replicas());
                });
    }

    private static List<Object> keys(long voucherId, Keeping keeping, Tickets tickets, List<Order> orders) {
        List<Object> keys = new ArrayList<>(9 + (tickets.carried() ? orders.size() : 0));
        keys.add(VoucherKeys.stock(voucherId));
        keys.add(VoucherKeys.buyers(voucherId));
        keys.add(VoucherKeys.shopperOrders(voucherId));
        keys.add(VoucherKeys.resetFence(voucherId));
        keys.add(inFlight(voucherId, keeping));
        keys.add(VoucherKeys.orders(voucherId));
        keys.add(VoucherKeys.sale(voucherId));
        if (tickets.carried()) {
            // Declared, not built inside the script: on Redis Cluster a script may touch only the keys it is given.
            for (Order order : orders) {
                keys.add(VoucherKeys.ticket(voucherId, order.shopperId()));
            }
        }
        if (tickets == Tickets.ROOM) {
            keys.add(VoucherKeys.roomOpenAdmissions(voucherId));
            keys.add(VoucherKeys.roomSpent(voucherId));
        }
        return keys;
    }

    /** Where an accepted order is recorded until it is settled: pending (queued) or a sync unit (held). */
    static String inFlight(long voucherId, Keeping keeping) {
        return keeping == Keeping.QUEUE ? VoucherKeys.pending(voucherId) : VoucherKeys.syncUnits(voucherId);
    }

    private static Object[] arguments(Keeping keeping, Tickets tickets, List<Order> orders) {
        int stride = tickets.carried() ? 4 : 3;
        Object[] args = new Object[2 + stride * orders.size()];
        args[0] = keeping.argument;
        args[1] = tickets.argument;
        for (int i = 0; i < orders.size(); i++) {
            Order order = orders.get(i);
            int at = 2 + stride * i;
            args[at] = order.shopperId();
            args[at + 1] = order.orderId();
            args[at + 2] = order.atMillis();
            if (stride == 4) {
                args[at + 3] = order.ticket() == null ? "" : order.ticket();
            }
        }
        return args;
    }

    /** One answer per order, then the sale's generation. */
    private static Decided decided(List<Object> answers, int orders) {
        if (answers.size() != orders + 1) {
            throw new IllegalStateException("purchase.lua answered " + answers.size() + " elements for " + orders
                    + " orders");
        }
        List<Decision> decisions = new ArrayList<>(orders);
        for (int i = 0; i < orders; i++) {
            decisions.add(Decision.ofAnswer(answers.get(i)));
        }
        return new Decided(decisions, ((Number) answers.get(orders)).longValue());
    }
}
