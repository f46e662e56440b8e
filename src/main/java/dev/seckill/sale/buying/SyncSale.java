package dev.seckill.sale.buying;

import dev.seckill.sale.PlacedOrder;
import dev.seckill.sale.Sale;

import java.time.Clock;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;

import dev.seckill.SyncMode;
import dev.seckill.id.IdGenerator;
import dev.seckill.platform.Outages;
import dev.seckill.salestate.HeldLock;
import dev.seckill.salestate.SeckillLocks;
import dev.seckill.sale.SaleMeters;
import dev.seckill.order.OwnOrders;
import dev.seckill.order.SyncOrderCreation;
import dev.seckill.sale.reconcile.StreamReconciler;
import dev.seckill.ratelimit.ShopperRateLimits;
import dev.seckill.refusal.Reason;
import dev.seckill.refusal.Refusal;
import dev.seckill.sale.buying.PurchaseDecision.Keeping;
import dev.seckill.sale.buying.PurchaseDecision.Order;
import dev.seckill.sale.buying.PurchaseDecision.Tickets;
import dev.seckill.sale.buying.PurchaseDecision.Decision;
import dev.seckill.sale.buying.PurchaseDecision.Outcome;
import dev.seckill.salestate.StockCache;
import dev.seckill.salestate.SyncUnits;
import dev.seckill.voucher.SaleWindow;
import dev.seckill.voucher.SaleWindowCache;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Service;
import org.springframework.transaction.CannotCreateTransactionException;

/**
 * The synchronous seckill path. Cheapest refusals first (memory, then one Redis GET), then the
 * shopper's lock, one unit of cached stock (unless the shopper already bought), the voucher's lock
 * and the order's transaction. Not
 * transactional itself: the locks must outlive the transaction, so it is opened and committed inside
 * {@link SyncOrderCreation#create} (through its proxy) before either lock is released. The order's id is
 * issued before the unit is taken: Redis records the unit under it, so that the unit of a request that
 * dies half-way is found, and MySQL says whether it was sold (dev.seckill.sale.sync).
 */
@SyncMode
@Service
class SyncSale implements Sale {

    private static final Logger log = LoggerFactory.getLogger(SyncSale.class);

    private final SaleWindowCache windows;
    private final StockCache stock;
    private final PurchaseDecision purchases;
    private final SyncUnits units;
    private final StreamReconciler reconciler;
    private final SeckillLocks locks;
    private final SyncOrderCreation writer;
    private final OwnOrders orders;
    private final ShopperRateLimits rateLimits;
    private final IdGenerator ids;
    private final SaleMeters meters;
    private final Clock clock;
    private final TicketAdmission admission;

    SyncSale(SaleWindowCache windows, StockCache stock, PurchaseDecision purchases, SyncUnits units,
            StreamReconciler reconciler, SeckillLocks locks, SyncOrderCreation writer, OwnOrders orders,
            ShopperRateLimits rateLimits, IdGenerator ids, SaleMeters meters, Clock clock, TicketAdmission admission) {
        this.admission = admission;
        this.windows = windows;
        this.stock = stock;
        this.purchases = purchases;
        this.units = units;
        this.reconciler = reconciler;
        this.locks = locks;
        this.writer = writer;
        this.orders = orders;
        this.rateLimits = rateLimits;
        this.ids = ids;
        this.meters = meters;
        this.clock = clock;
    }

    /** Decided while the caller waits, under the shopper's and the voucher's locks. */
    @Override
    public CompletableFuture<PlacedOrder> placeAsync(long shopperId, long voucherId, boolean replayable,
            String ticket) {
        return CompletableFuture.completedFuture(place(shopperId, voucherId, replayable, ticket));
    }

    PlacedOrder place(long shopperId, long voucherId, boolean replayable, String ticket) {
        SaleWindow window = windows.require(voucherId);
        window.requireOpenAt(clock.instant());
        if (stock.isSoldOut(voucherId)) {
            return soldOut(shopperId, voucherId, replayable);
        }
        Tickets tickets = admission.admit(window, ticket, replayable);
        rateLimits.requireOrderPermit(shopperId);
        Decision taken;
        try (HeldLock shopperLock = locks.lockShopper(voucherId, shopperId)) {
            long orderId = ids.next();
            taken = takeOrGiveBack(voucherId, shopperId, orderId, tickets, ticket);
            if (taken.outcome() == Outcome.ACCEPTED) {
                return commit(shopperId, voucherId, orderId, replayable);
            }
        }
        // Refused by Redis: nothing of this shopper's is held, so the answer (maybe a MySQL read) needs no lock.
        return switch (taken.outcome()) {
            case SOLD_OUT -> soldOut(shopperId, voucherId, replayable);
            case ALREADY_BOUGHT -> alreadyBought(shopperId, voucherId, taken.existingOrderId(), replayable);
            case NO_TICKET -> throw TicketAdmission.noTicket(window, ticket);
            case RESETTING, NOT_CACHED -> throw SaleAnswers.voucherBusy(taken.outcome());
            case ACCEPTED -> throw new IllegalStateException("an accepted order was answered under the lock");
        };
    }

    /** MySQL has the last word: its stock guard and its one-order-per-shopper key. */
    private PlacedOrder commit(long shopperId, long voucherId, long orderId, boolean replayable) {
        try {
            return PlacedOrder.created(order(shopperId, voucherId, orderId));
        } catch (Refusal refusal) {
            return switch (refusal.reason()) {
                case SOLD_OUT -> soldOut(shopperId, voucherId, replayable);
                case ALREADY_ORDERED -> alreadyBought(shopperId, voucherId, 0, replayable);
                default -> throw refusal;
            };
        }
    }

    private PlacedOrder soldOut(long shopperId, long voucherId, boolean replayable) {
        return PlacedOrder.soldOut(replayable, () -> orders.orderIdInMySql(shopperId, voucherId))
                .asItIsNow(id -> orders.statusOfOwn(id, shopperId));
    }

    private PlacedOrder alreadyBought(long shopperId, long voucherId, long existingOrderId, boolean replayable) {
        return SaleAnswers.alreadyBought(existingOrderId, replayable, () -> orders.orderIdInMySql(shopperId, voucherId))
                .asItIsNow(id -> orders.statusOfOwn(id, shopperId));
    }

    /**
     * Under the shopper's lock, with a unit taken for {@code orderId}: the order's transaction. A refusal, or a
     * failure before the transaction began, gives the unit back. A transaction that failed after it began may still
     * have committed (its commit's answer lost): MySQL is asked, and the order stands if it is there, its unit is
     * given back if it is not, and if MySQL cannot say, the shopper is told the order is unconfirmed, under its id,
     * and the unit stays held for the sweeper, which settles it by what MySQL has once it answers.
     */
    private long order(long shopperId, long voucherId, long orderId) {
        boolean settled = false;
        try (HeldLock voucherLock = locks.lockVoucher(voucherId)) {
            try {
                writer.create(orderId, shopperId, voucherId);
            } catch (Refusal | CannotCreateTransactionException notBegun) {
                throw notBegun;
            } catch (RuntimeException maybeCommitted) {
                switch (inMySqlAfterAll(shopperId, voucherId, orderId, maybeCommitted)) {
                    case YES -> { }
                    case NO -> throw maybeCommitted;
                    case UNKNOWN -> {
                        settled = true;
                        throw Refusal.unconfirmedCommit(orderId, voucherId);
                    }
                }
            }
            settled = true;
            meters.accepted(voucherId);
        } finally {
            if (!settled) {
                stock.giveBack(voucherId, orderId);
            }
        }
        // Still under the shopper's lock: this shopper's next request already sees it.
        try {
            stock.addBuyer(voucherId, shopperId, orderId);
        } catch (RuntimeException e) {
            if (!Outages.isOutage(e)) {
                throw e;
            }
            // MySQL has the order: it stands, and an outage answer would tell the shopper the opposite. Its unit's
            // record stays in Redis, and the sweeper, finding the order in MySQL, makes the shopper a buyer.
            log.warn("Order {} of voucher {} is in MySQL; marking its buyer in Redis failed, the sweeper will: {}",
                    orderId, voucherId, e.toString());
        }
        return orderId;
    }

    private enum Committed { YES, NO, UNKNOWN }

    /** Whether the order whose transaction failed with {@code failure} is in MySQL all the same. */
    private Committed inMySqlAfterAll(long shopperId, long voucherId, long orderId, RuntimeException failure) {
        try {
            OptionalLong inMySql = orders.orderIdInMySql(shopperId, voucherId);
            return inMySql.isPresent() && inMySql.getAsLong() == orderId ? Committed.YES : Committed.NO;
        } catch (RuntimeException unknown) {
            log.warn("Order {} of voucher {}: its transaction failed ({}) and MySQL cannot say whether it committed "
                    + "({}); its unit stays held until the sweeper finds out", orderId, voucherId, failure.toString(),
                    unknown.toString());
            return Committed.UNKNOWN;
        }
    }

    /**
     * Takes a unit for {@code orderId}. A purchase call that failed may have run all the same (its answer lost): the
     * unit it may have taken goes back at once, so that an answer of 5xx leaves it on sale. If that fails too, the
     * unit's record stays, and the sweeper returns it after {@code seckill.sync-units.unit-timeout}: no order of it
     * can commit, since this request ends here.
     */
    private Decision takeOrGiveBack(long voucherId, long shopperId, long orderId, Tickets tickets, String ticket) {
        try {
            return takeCachedStock(voucherId, shopperId, orderId, tickets, ticket);
        } catch (RuntimeException failure) {
            try {
                stock.giveBack(voucherId, orderId);
            } catch (RuntimeException alsoFailed) {
                failure.addSuppressed(alsoFailed);
                log.warn("Voucher {}: the purchase call for order {} failed, and so did giving back the unit it may have "
                        + "taken; the sweeper returns it: {}", voucherId, orderId, alsoFailed.toString());
            }
            throw failure;
        }
    }

    private Decision takeCachedStock(long voucherId, long shopperId, long orderId, Tickets tickets, String ticket) {
        Decision taken = take(voucherId, shopperId, orderId, tickets, ticket);
        if (taken.outcome() == Outcome.NOT_CACHED) {
            // Redis lost the counter (restart, eviction): rebuild it and the buyer set from MySQL,
            // the same way as the async path (once, under the voucher's lock), then try again.
            reconciler.reconcileIfMissing(voucherId);
            taken = take(voucherId, shopperId, orderId, tickets, ticket);
        }
        return taken;
    }

    /**
     * Takes a unit for the request that will commit as {@code orderId}, held under it with the request's clock, once
     * the sweepers know the voucher. Sent twice (a lost reply), it takes one unit. With tickets asked, it also spends
     * the shopper's {@code ticket}, or takes nothing ({@code NO_TICKET}).
     */
    private Decision take(long voucherId, long shopperId, long orderId, Tickets tickets, String ticket) {
        units.registerOnce(voucherId);
        return purchases.decide(voucherId, Keeping.HOLD, tickets, new Order(shopperId, orderId, clock.millis(), ticket));
    }

    @Override
    public boolean confirmsAtOnce() {
        return true;
    }
}
