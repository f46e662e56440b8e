package dev.seckill.salestate;

import java.util.List;

/**
 * Every Redis key of one voucher. All carry the voucher id as a {hash tag}, so they share one Redis
 * Cluster slot and a Lua script may touch any of them together.
 */
public final class VoucherKeys {

    private VoucherKeys() {
    }

    /** Units left for sale, as the request path sees them. */
    public static String stock(long voucherId) {
        return key(voucherId, "stock");
    }

    /** Shoppers holding an order (async path): the atomic "already bought?" check. */
    public static String buyers(long voucherId) {
        return key(voucherId, "buyers");
    }

    /** Accepted orders waiting to be written to MySQL (a Redis Stream). */
    public static String orders(long voucherId) {
        return key(voucherId, "orders");
    }

    /** orderId -> shopperId of every accepted order not yet in MySQL: answers "PENDING". */
    public static String pending(long voucherId) {
        return key(voucherId, "pending");
    }

    /** orderId -> shopperId of orders given up on after their retries: answers "FAILED". */
    public static String failed(long voucherId) {
        return key(voucherId, "failed");
    }

    /** Dead-letter stream: the failed orders with their reason, for people to look at. */
    public static String deadLetters(long voucherId) {
        return key(voucherId, "orders:dead");
    }

    /** messageId -> failed attempts to persist it (transient outages do not count). */
    public static String attempts(long voucherId) {
        return key(voucherId, "attempts");
    }

    /**
     * shopperId -> id of the shopper's latest order of the voucher, whatever became of it (pending,
     * in MySQL, or given up: {@link #pending} and {@link #failed} say which). An index, never the
     * decision: {@link #buyers} decides who may buy, and a buyer without an entry here (a voucher
     * sold before the index existed, an order given up as a duplicate) is looked up in MySQL. It lets
     * already-ordered name the order, and a shopper whose 202 was lost find it, without a scan.
     */
    public static String shopperOrders(long voucherId) {
        return key(voucherId, "shopper-orders");
    }

    /**
     * orderId -> "takenAtMillis:shopperId" of every unit the sync path took for a request that has not
     * finished yet: the request commits (its record is dropped as its shopper becomes a buyer) or gives
     * the unit back; a record left behind by a request that died is the sweeper's to settle or return.
     */
    public static String syncUnits(long voucherId) {
        return key(voucherId, "sync-units");
    }

    /**
     * orderId -> "returnedAtMillis:shopperId" of units the sweeper returned to stock: kept for a while so
     * that a request still alive after all neither gives its unit back a second time nor keeps a unit it
     * sold without taking it again.
     */
    public static String syncUnitsReturned(long voucherId) {
        return key(voucherId, "sync-units:returned");
    }

    /**
     * Ids of the orders whose unit (an expired or cancelled order's) went back into the stock counter: a unit goes
     * back only if its order is not in here yet, so a retry, a crash between MySQL and Redis or two instances at
     * once return it once ({@code unit-return.lua}).
     */
    public static String returnedUnits(long voucherId) {
        return key(voucherId, "returned");
    }

    /**
     * The shopper's purchase ticket for the voucher (a string key with a TTL, {@code sale/ticket/ticket-issue.lua});
     * spent by the purchase script when it takes a unit for them. One per shopper: a new ticket replaces the old.
     */
    public static String ticket(long voucherId, long shopperId) {
        return key(voucherId, "ticket:" + shopperId);
    }

    /** A challenge solved for a ticket of this voucher, kept until the challenge expires: each is used once. */
    public static String solvedChallenge(long voucherId, String challenge) {
        return key(voucherId, "solved:" + challenge);
    }

    /**
     * Set while a stock reset rewrites the counter (its value names the reset): the purchase script
     * refuses every order meanwhile, so no order interleaves with a reset. It expires by itself
     * ({@code seckill.stock.reset-fence}) if the instance resetting dies.
     */
    public static String resetFence(long voucherId) {
        return key(voucherId, "reset");
    }

    /**
     * The sale's generation, as MySQL's {@code seckill_voucher.sale_generation} has it (absent: 0, a sale never
     * started afresh): a stock reset that deletes the orders moves it on, and writes it here with the new counter.
     * The purchase script answers it with its decisions, so each accepted order is journaled with the sale it
     * belongs to, and a failover's replay leaves out the orders of a sale started afresh since.
     */
    public static String sale(long voucherId) {
        return key(voucherId, "sale");
    }

    /**
     * The waiting room's places (a sorted set, dev.seckill.sale.room): shopper -> score, lottery entrants by their
     * lottery number (below 2^52), later arrivals behind them by 2^52 plus their arrival number.
     */
    public static String roomPlaces(long voucherId) {
        return key(voucherId, "room:places");
    }

    /** How many arrived after the draw: the arrival number of the last of them. */
    public static String roomLate(long voucherId) {
        return key(voucherId, "room:late");
    }

    /** Set once the room's arrival window has closed: its entrants are final, every later join queues behind. */
    public static String roomClosed(long voucherId) {
        return key(voucherId, "room:closed");
    }

    /** Set once the lottery is drawn: its entrants' numbers are written, their places known. */
    public static String roomDrawn(long voucherId) {
        return key(voucherId, "room:drawn");
    }

    /** How many places from the front the room has let in. */
    public static String roomAdmitted(long voucherId) {
        return key(voucherId, "room:admitted");
    }

    /** When the room may let the next batch in (epoch millis). */
    public static String roomNextBatch(long voucherId) {
        return key(voucherId, "room:next-batch");
    }

    /**
     * The room's open admissions: shopper -> when their admission runs out (epoch millis), for every shopper let in
     * whose admission is neither spent (the purchase script takes them out) nor run out. The room lets no more in
     * than units are left for them.
     */
    public static String roomOpenAdmissions(long voucherId) {
        return key(voucherId, "room:open");
    }

    /**
     * shopper -> the order their room admission bought (the purchase script writes it as it spends the admission), so
     * that the room tells a spent admission from one that ran out, and gives it back when that order did not stand.
     */
    public static String roomSpent(long voucherId) {
        return key(voucherId, "room:spent");
    }

    /**
     * shopper -> the member of the room's places that is theirs now, for a shopper queued again after their admission
     * ran out: a new place behind everyone, while the one they were let in from stays where it was, let in, so that
     * no place behind it moves.
     */
    public static String roomRequeued(long voucherId) {
        return key(voucherId, "room:requeued");
    }

    /**
     * The room's controls, set by an admin: {@code paused} '1' (nobody more let in for now), {@code rate} (places let in
     * a second, instead of the voucher's), {@code closed} '1' (nobody more joins or is let in, for good).
     */
    public static String roomControl(long voucherId) {
        return key(voucherId, "room:control");
    }

    /** A shopper's looks at their place in the voucher's room in the current window of the poll limit. */
    public static String roomPolls(long voucherId, long shopperId) {
        return key(voucherId, "room:polls:" + shopperId);
    }

    /** shopper -> when they were let in (epoch millis): an admission lasts a while from then, once. */
    public static String roomAdmittedAt(long voucherId) {
        return key(voucherId, "room:admitted-at");
    }

    /** The keys of the shopper's-order lookup script, in its KEYS order. */
    public static List<Object> forShopperOrder(long voucherId) {
        return List.of(shopperOrders(voucherId), pending(voucherId), failed(voucherId), buyers(voucherId));
    }

    /** The vouchers that have an order stream (async path). Not hash-tagged: no script touches it. */
    public static final String ORDER_STREAMS = "seckill:order-streams";

    private static String key(long voucherId, String name) {
        return "seckill:{" + voucherId + "}:" + name;
    }
}
