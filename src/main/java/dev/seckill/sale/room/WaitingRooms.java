package dev.seckill.sale.room;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

import dev.seckill.ratelimit.RateLimitSettings;
import dev.seckill.ratelimit.ShopperRateLimits;
import dev.seckill.refusal.Reason;
import dev.seckill.refusal.Refusal;
import dev.seckill.sale.reconcile.StreamReconciler;
import dev.seckill.sale.ticket.PurchaseTickets;
import dev.seckill.sale.ticket.TicketSettings;
import dev.seckill.voucher.RoomDefaults;
import dev.seckill.voucher.SaleWindow;
import dev.seckill.voucher.SaleWindowCache;
import dev.seckill.voucher.VoucherStockChanged;
import dev.seckill.voucher.WaitingRoom;
import org.springframework.boot.convert.DurationStyle;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Service;

/**
 * Waiting rooms: a shopper joins (after the challenge, where tickets are asked), polls their place, and is let in
 * with an admission that the purchase script spends as it spends a ticket. The lottery's numbers are computed here
 * once the arrival window has closed, from the seed the voucher keeps secret until then and the entrants
 * ({@link RoomLottery}); the places, the admissions and the window's closing are decided in Redis ({@link RoomStore}),
 * so two instances agree.
 */
@Service
public class WaitingRooms {

    private final SaleWindowCache windows;
    private final RoomStore store;
    private final RoomSettings settings;
    private final PurchaseTickets tickets;
    private final boolean challengeAtJoin;
    private final ShopperRateLimits limits;
    private final RateLimitSettings.RoomPollsLimit pollLimit;
    private final Clock clock;
    private final PublishedDraws published;
    private final KnownPlaces known;
    private final RoomDefaults roomDefaults;
    private final StreamReconciler stockRebuild;
    /** The draws this instance is computing now, so that the callers of one moment wait for one. */
    private final ConcurrentHashMap<Long, CompletableFuture<List<String>>> drawings = new ConcurrentHashMap<>();

    /** The longest a waiting page is told to wait before it asks again. */
    static final long MAX_POLL_AFTER_SECONDS = 30;

    /**
     * A sold-out room's public state is looked at this many poll intervals apart: units come back only when an order
     * goes unpaid or is cancelled, minutes later.
     */
    static final long SOLD_OUT_POLL_FACTOR = 10;

    WaitingRooms(SaleWindowCache windows, RoomStore store, RoomSettings settings, PurchaseTickets tickets,
            TicketSettings ticketSettings, ShopperRateLimits limits, RateLimitSettings limitSettings, Clock clock,
            StreamReconciler stockRebuild, PublishedDraws published, KnownPlaces known, RoomDefaults roomDefaults) {
        this.known = known;
        this.roomDefaults = roomDefaults;
        this.pollLimit = limitSettings.roomPolls();
        this.stockRebuild = stockRebuild;
        this.published = published;
        this.windows = windows;
        this.store = store;
        this.settings = settings;
        this.tickets = tickets;
        this.challengeAtJoin = ticketSettings.required();
        this.limits = limits;
        this.clock = clock;
    }

    /**
     * The shopper takes a place: in the lottery during the arrival window, behind it afterwards; a second join
     * answers the place they have, or, when their admission ran out unused, queues them again behind everyone.
     *
     * @param solution the challenge's solution, asked where tickets are ({@code seckill.tickets.required})
     */
    public RoomPlace join(long shopperId, long voucherId, String solution) {
        SaleWindow window = windows.require(voucherId);
        WaitingRoom room = roomOf(window);
        Instant now = clock.instant();
        requireJoinable(window, now);
        limits.requireTicketPermit(shopperId);
        if (challengeAtJoin && store.isIn(voucherId, shopperId)) {
            // A second tab, a reload: the place they hold, no second proof of work. Without a challenge the join
            // script itself answers a shopper already in the room, in its one call.
            return pollOrQueueAgain(shopperId, voucherId, window, room, now);
        }
        PurchaseTickets.Solution spent = challengeAtJoin ? tickets.verify(shopperId, voucherId, window, solution) : null;
        boolean windowOpen = now.isBefore(room.drawAt(window.begin()));
        RoomStore.Joined joined = store.join(voucherId, shopperId, windowOpen,
                spent == null ? null : spent.challenge(), spent == null ? Duration.ZERO : spent.remembered(),
                keysExpireAt(window));
        if (joined.outcome() == RoomStore.JoinOutcome.SOLUTION_SPENT) {
            throw new Refusal(Reason.CHALLENGE_SPENT);
        }
        if (joined.outcome() == RoomStore.JoinOutcome.CLOSED) {
            throw new Refusal(Reason.ROOM_CLOSED);
        }
        return joined.outcome() == RoomStore.JoinOutcome.ALREADY_IN
                ? pollOrQueueAgain(shopperId, voucherId, window, room, now)
                : poll(shopperId, voucherId, window, room, now);
    }

    /**
     * A join of a shopper already in the room: the place they hold, unless their admission ran out unused; then they
     * queue again, behind everyone (the place they were let in from stays let in, so no other place moves).
     */
    private RoomPlace pollOrQueueAgain(long shopperId, long voucherId, SaleWindow window, WaitingRoom room,
            Instant now) {
        RoomPlace place = poll(shopperId, voucherId, window, room, now);
        if (!place.state().equals(name(PlaceState.ADMISSION_LAPSED))) {
            return place;
        }
        if (store.queueAgain(voucherId, shopperId, keysExpireAt(window)) == -2) {
            throw new Refusal(Reason.ROOM_CLOSED);
        }
        return poll(shopperId, voucherId, window, room, now);
    }

    /** The shopper's place now, and their admission once their turn has come. */
    public RoomPlace place(long shopperId, long voucherId) {
        SaleWindow window = windows.require(voucherId);
        WaitingRoom room = roomOf(window);
        Instant now = clock.instant();
        requireJoinable(window, now);
        KnownPlaces.Known waiting = known.waiting(voucherId, shopperId);
        if (waiting != null) {
            return waitingOrSoldOut(waiting.rank(), waiting.room(), room, window);
        }
        return poll(shopperId, voucherId, window, room, now);
    }

    /**
     * The room's public state ({@link RoomNow}); it also lets the next batch in when one is due, as a shopper's poll
     * does, so a room moves on while its pages wait on this alone. No shopper's limit: a shared cache answers it for
     * the crowd.
     */
    public RoomNow now(long voucherId) {
        SaleWindow window = windows.require(voucherId);
        WaitingRoom room = roomOf(window);
        Instant now = clock.instant();
        if (!now.isBefore(keysExpireAt(window))) {
            throw new Refusal(Reason.NO_WAITING_ROOM, "The room's places were dropped " + settings.keepAfterSale()
                    + " after its sale ended");
        }
        Instant drawAt = room.drawAt(window.begin());
        boolean drawDue = !now.isBefore(drawAt);
        RoomStore.Polled polled = serving(voucherId, room, drawDue, window);
        if (drawDue && polled.state() == PlaceState.IN_THE_DRAW) {
            drawn(voucherId, room, window);
            polled = serving(voucherId, room, true, window);
        }
        known.served(voucherId, polled);
        boolean drawn = polled.state() != PlaceState.IN_THE_DRAW;
        if (drawn && polled.stock() < 0) {
            stockRebuild.reconcileIfMissing(voucherId);
        }
        boolean soldOut = polled.state() == PlaceState.SOLD_OUT;
        boolean closed = polled.state() == PlaceState.ROOM_CLOSED;
        long pollAfter = Math.max(1, settings.pollInterval().toSeconds());
        // Paused: looked at at the usual pace all the same, so that the places let in when it resumes are there
        // within their presence window.
        long after = soldOut || closed ? SOLD_OUT_POLL_FACTOR * pollAfter
                : drawn ? pollAfter : Math.max(pollAfter, Math.min(Duration.between(now, drawAt).toSeconds(), 10));
        return new RoomNow(voucherId, drawn, drawAt, polled.admitted(), polled.size(),
                Math.max(0, polled.stock() - polled.held()), soldOut, rate(polled.rate(), room), polled.paused(), closed,
                after);
    }

    private RoomStore.Polled serving(long voucherId, WaitingRoom room, boolean drawDue, SaleWindow window) {
        return store.serving(voucherId, drawDue, pace(room), keysExpireAt(window));
    }

    /** The places a second an admin set, else the voucher's own. */
    private static int rate(int setByAdmin, WaitingRoom room) {
        return setByAdmin > 0 ? setByAdmin : room.admissionsPerSecond();
    }

    /**
     * What an admin changes of a room, live on every instance from the next poll (a null leaves it as it is): pause it
     * (nobody more let in until resumed; admissions given stay good), set its rate, close it (for good: nobody more
     * joins or is let in).
     *
     * @throws Refusal {@code ROOM_CLOSED} for reopening a closed room
     */
    public RoomControl control(long voucherId, Boolean paused, Integer admissionsPerSecond, Boolean closed) {
        SaleWindow window = windows.require(voucherId);
        WaitingRoom room = roomOf(window);
        if (Boolean.FALSE.equals(closed) && store.control(voucherId).closed()) {
            throw new Refusal(Reason.ROOM_CLOSED, "A closed room stays closed: start a fresh sale of the voucher instead");
        }
        RoomStore.Control set = store.control(voucherId, paused, admissionsPerSecond, closed, keysExpireAt(window));
        known.forget(voucherId);
        return control(set, room);
    }

    /** What an admin set of the room, and its rate now. */
    public RoomControl control(long voucherId) {
        SaleWindow window = windows.require(voucherId);
        return control(store.control(voucherId), roomOf(window));
    }

    private static RoomControl control(RoomStore.Control set, WaitingRoom room) {
        return new RoomControl(set.paused(), set.closed(), rate(set.rate(), room), room.admissionsPerSecond());
    }

    private RoomStore.Pace pace(WaitingRoom room) {
        return new RoomStore.Pace(settings.batchSize(room.admissionsPerSecond()), settings.batchInterval(),
                settings.presence(), settings.admissionLifetime());
    }

    /** The lottery as published: the commitment always, the seed and the order once the arrival window has closed. */
    public RoomDraw draw(long voucherId) {
        return publishedDraw(voucherId).draw();
    }

    /** {@link #draw}, as it is sent (encoded once per instance: {@link PublishedDraws}). */
    PublishedDraws.PublishedDraw publishedDraw(long voucherId) {
        SaleWindow window = windows.require(voucherId);
        WaitingRoom room = roomOf(window);
        Instant drawAt = room.drawAt(window.begin());
        return published.get(voucherId, () -> {
            Instant now = clock.instant();
            if (now.isBefore(drawAt)) {
                long secondsLeft = Math.max(1, Duration.between(now, drawAt).plusMillis(999).toSeconds());
                throw new Refusal(Reason.DRAW_NOT_YET, "The lottery is drawn at " + drawAt + ", in " + secondsLeft
                        + " s; its commitment: " + RoomLottery.commitment(room.seed()), secondsLeft, 0);
            }
            if (!now.isBefore(keysExpireAt(window))) {
                // Redis dropped the room's places after the sale (keep-after-sale): an empty list read now would be
                // published as the draw.
                throw new Refusal(Reason.NO_WAITING_ROOM, "The room's places were dropped "
                        + settings.keepAfterSale() + " after its sale ended; its draw is no longer kept");
            }
            List<String> entrants = drawn(voucherId, room, window);
            return new RoomDraw(voucherId, window.begin(), drawAt, RoomLottery.commitment(room.seed()), room.seed(),
                    RoomLottery.entrantsHash(entrants), List.copyOf(entrants), RoomDraw.RULE);
        });
    }

    /** What anyone may know of the room before the draw: when it opens and draws, and the seed's commitment. */
    public RoomDraw announcement(long voucherId) {
        SaleWindow window = windows.require(voucherId);
        WaitingRoom room = roomOf(window);
        return new RoomDraw(voucherId, window.begin(), room.drawAt(window.begin()), RoomLottery.commitment(room.seed()),
                null, null, null, RoomDraw.RULE);
    }

    /** A fresh sale starts its room's admissions again from the front place. */
    @EventListener
    void freshSale(VoucherStockChanged changed) {
        if (changed.ordersDeleted() && windows.find(changed.voucherId()).filter(SaleWindow::hasRoom).isPresent()) {
            store.restartAdmissions(changed.voucherId());
            published.forget(changed.voucherId());
            known.forget(changed.voucherId());
        }
    }

    /** The room's numbers for the admin's dashboard; null for a voucher without a room. */
    public RoomNumbers numbers(long voucherId) {
        return windows.find(voucherId).filter(SaleWindow::hasRoom).map(window -> store.numbers(voucherId)).orElse(null);
    }

    private RoomPlace poll(long shopperId, long voucherId, SaleWindow window, WaitingRoom room, Instant now) {
        Instant drawAt = room.drawAt(window.begin());
        boolean drawDue = !now.isBefore(drawAt);
        RoomStore.Polled polled = store.poll(voucherId, shopperId, drawDue, pace(room), tickets.newTicket(),
                keysExpireAt(window), pollLimit);
        if (drawDue && polled.state() == PlaceState.IN_THE_DRAW) {
            // the first to ask after the close: the numbers are written now, and the place read again
            drawn(voucherId, room, window);
            polled = store.poll(voucherId, shopperId, true, pace(room), tickets.newTicket(), keysExpireAt(window),
                    pollLimit);
        }
        if (polled.unitTaken()) {
            // Its order failed and the room let the next place in on the unit meanwhile: queued again, behind everyone.
            store.queueAgain(voucherId, shopperId, keysExpireAt(window));
            polled = store.poll(voucherId, shopperId, true, pace(room), tickets.newTicket(), keysExpireAt(window),
                    pollLimit);
        }
        known.polled(voucherId, shopperId, polled);
        if (polled.stock() < 0 && polled.state() != PlaceState.IN_THE_DRAW && polled.state() != PlaceState.NOT_IN_ROOM) {
            // Redis lost the counter: nobody in the room can buy to make the purchase path rebuild it, and the room
            // lets nobody in without it.
            stockRebuild.reconcileIfMissing(voucherId);
        }
        long pollAfter = Math.max(1, settings.pollInterval().toSeconds());
        return switch (polled.state()) {
            case NOT_IN_ROOM -> throw new Refusal(Reason.NOT_IN_WAITING_ROOM);
            case POLLED_TOO_OFTEN -> throw new Refusal(Reason.RATE_LIMITED, "At most " + pollLimit.permits()
                    + " looks at a place per " + DurationStyle.SIMPLE.print(pollLimit.per()),
                    Math.max(1, (polled.millisLeft() + 999) / 1000), 0);
            case IN_THE_DRAW -> new RoomPlace(name(polled.state()), null, null, 0, polled.size(), null, null, null,
                    drawAt, null, null, Math.max(pollAfter, Math.min(Duration.between(now, drawAt).toSeconds(), 10)),
                    null, null);
            case WAITING, SOLD_OUT -> waitingOrSoldOut(polled.rank(), KnownPlaces.Room.of(polled, 0), room, window);
            case ROOM_CLOSED -> new RoomPlace(name(polled.state()), polled.rank() + 1, null, polled.admitted(),
                    polled.size(), null, null, false, drawAt, null, null, SOLD_OUT_POLL_FACTOR * pollAfter, null, null);
            case ADMITTED -> new RoomPlace(name(polled.state()), polled.rank() + 1, 0L, polled.admitted(), polled.size(),
                    null, null, null, drawAt, polled.ticket(), Math.max(1, polled.millisLeft() / 1000), pollAfter, null,
                    null);
            case ADMISSION_LAPSED, ADMISSION_USED -> new RoomPlace(name(polled.state()), polled.rank() + 1, 0L, polled.admitted(),
                    polled.size(), null, null, null, drawAt, null, null, pollAfter, null, null);
        };
    }

    /** A place behind those let in, or in a room with nothing left to sell now ({@code stock} 0). */
    private RoomPlace waitingOrSoldOut(long rank, KnownPlaces.Room numbers, WaitingRoom room, SaleWindow window) {
        Instant drawAt = room.drawAt(window.begin());
        long pollAfter = Math.max(1, settings.pollInterval().toSeconds());
        long admitted = numbers.admitted();
        long ahead = Math.max(0, rank - admitted);
        if (numbers.stock() == 0) {
            // Units come back only when an order goes unpaid or is cancelled: no hurry to ask again.
            return new RoomPlace(name(PlaceState.SOLD_OUT), rank + 1, ahead, admitted, numbers.size(), null, 0L, false,
                    drawAt, null, null, 3 * pollAfter, null, null);
        }
        // What the admitted shoppers hold is not free for anyone behind them: a place is told a time only if the units
        // left reach it when everyone ahead buys, else that they will likely run out first, with its odds.
        long free = Math.max(0, numbers.stock() - numbers.held());
        boolean likely = ahead < free && !numbers.paused();
        long eta = (long) Math.ceil((ahead + 1) / (double) rate(numbers.rate(), room));
        Double odds = ahead < free || numbers.stock() < 0 ? null : RoomOdds.ofATurn(numbers.stock(), numbers.held(), ahead,
                admitted - numbers.held(), numbers.spent());
        // Far back in the queue: a fifth of the wait, so a large room's polls do not grow with it; never longer than half
        // the presence window, since an admin may raise the rate (the page waits on the public state meanwhile).
        long longest = Math.max(pollAfter, Math.min(MAX_POLL_AFTER_SECONDS, settings.presence().toSeconds() / 2));
        long after = Math.min(longest, Math.max(pollAfter, eta / 5));
        return new RoomPlace(name(PlaceState.WAITING), rank + 1, ahead, admitted, numbers.size(), likely ? eta : null,
                free, ahead < free, drawAt, null, null, after, odds, numbers.paused());
    }

    /**
     * The room's entrants in place order, drawing the lottery first when nobody has yet: the window is closed (by the
     * caller's clock, which says it is due), the entrants read, their numbers computed from the seed and the entrants'
     * hash (which nobody could know before the close) and written. Every instance computes the same numbers, so two
     * drawing at once write the same thing; within this instance the callers of one moment wait for one drawing.
     */
    private List<String> drawn(long voucherId, WaitingRoom room, SaleWindow window) {
        RoomStore.Entrants entrants = store.entrants(voucherId, true, keysExpireAt(window));
        if (entrants.drawn()) {
            return entrants.shopperIds();
        }
        CompletableFuture<List<String>> mine = new CompletableFuture<>();
        CompletableFuture<List<String>> drawing = drawings.putIfAbsent(voucherId, mine);
        if (drawing != null) {
            return drawing.join();
        }
        try {
            String entrantsHash = RoomLottery.entrantsHash(entrants.shopperIds());
            Map<String, Long> numbers = new LinkedHashMap<>();
            for (String shopper : entrants.shopperIds()) {
                numbers.put(shopper, RoomLottery.number(room.seed(), entrantsHash, Long.parseLong(shopper)));
            }
            if (!store.number(voucherId, numbers, keysExpireAt(window))) {
                throw new IllegalStateException("The draw of voucher " + voucherId + " changed while it was numbered");
            }
            List<String> placed = store.entrants(voucherId, true, keysExpireAt(window)).shopperIds();
            mine.complete(placed);
            return placed;
        } catch (RuntimeException e) {
            mine.completeExceptionally(e);
            throw e;
        } finally {
            drawings.remove(voucherId, mine);
        }
    }

    /** A room's keys stay while its sale runs, and {@code keep-after-sale} after it ends, for the dashboard. */
    private Instant keysExpireAt(SaleWindow window) {
        return window.end().plus(settings.keepAfterSale());
    }

    /** A room takes joins (and tells places) from its pre-queue's start until the sale ends. */
    private void requireJoinable(SaleWindow window, Instant now) {
        Instant joinsFrom = roomDefaults.joinsFrom(window.begin());
        if (now.isBefore(joinsFrom)) {
            long secondsLeft = Math.max(1, Duration.between(now, joinsFrom).plusMillis(999).toSeconds());
            throw new Refusal(Reason.SALE_NOT_STARTED, "The waiting room opens at " + joinsFrom + ", in " + secondsLeft
                    + " s (the sale at " + window.begin() + ")", secondsLeft, 0);
        }
        if (!now.isBefore(window.end())) {
            throw new Refusal(Reason.SALE_ENDED, "The sale ended at " + window.end());
        }
    }

    private static WaitingRoom roomOf(SaleWindow window) {
        if (!window.hasRoom()) {
            throw new Refusal(Reason.NO_WAITING_ROOM);
        }
        return window.room();
    }

    /** The state as the JSON says it: {@code in-the-draw}, {@code waiting}, {@code admitted}, ... */
    static String name(PlaceState state) {
        return state.name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
}
