package dev.seckill.sale.room;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.seckill.platform.LuaScript;
import dev.seckill.ratelimit.RateLimitSettings;
import dev.seckill.salestate.VoucherKeys;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;
import org.springframework.stereotype.Component;

/**
 * The waiting rooms in Redis: {@code sale/room/room-join.lua}, {@code room-place.lua}, {@code room-draw.lua},
 * {@code room-number.lua}, {@code room-again.lua}, {@code room-restart.lua}.
 */
@Component
class RoomStore {

    /** What a join did: {@code rank} counts from 0 and is -1 when there is none. */
    record Joined(JoinOutcome outcome, long rank) {
    }

    enum JoinOutcome {
        ALREADY_IN, IN_THE_DRAW, BEHIND_THE_DRAW, SOLUTION_SPENT, CLOSED
    }

    /**
     * What a poll found; {@code rank} from 0 (-1: none yet), {@code stock} -1 when its counter is not in Redis,
     * {@code held} the units open admissions hold (told to a waiting place only, else 0); {@code rate} the places a
     * second an admin set (0: the voucher's own), {@code paused} whether an admin paused the room, {@code spent} the
     * admissions spent on orders that stand (told with {@code held}), {@code queuedAgain} whether the shopper's place is
     * one they were queued again at (a fresh sale takes it back: not a rank to remember), {@code unitTaken} with
     * {@code ADMISSION_LAPSED}: the admission's order failed and the room let another place in on its unit, so the
     * shopper is to be queued again ({@link #queueAgain}).
     */
    record Polled(PlaceState state, long rank, long admitted, long size, long stock, String ticket, long millisLeft,
            long held, int rate, boolean paused, long spent, boolean queuedAgain, boolean unitTaken) {
    }

    /** What an admin set of a room: paused, closed, its rate (0: the voucher's own). */
    record Control(boolean paused, boolean closed, int rate) {
    }

    private final LuaScript join;
    private final LuaScript place;
    private final LuaScript draw;
    private final LuaScript number;
    private final LuaScript numbers;
    private final LuaScript again;
    private final LuaScript restart;
    private final RedissonClient redisson;

    RoomStore(RedissonClient redisson) {
        this.redisson = redisson;
        this.join = new LuaScript(redisson, "sale/room/room-join.lua");
        this.place = new LuaScript(redisson, "sale/room/room-place.lua");
        this.draw = new LuaScript(redisson, "sale/room/room-draw.lua");
        this.number = new LuaScript(redisson, "sale/room/room-number.lua");
        this.numbers = new LuaScript(redisson, "sale/room/room-numbers.lua");
        this.again = new LuaScript(redisson, "sale/room/room-again.lua");
        this.restart = new LuaScript(redisson, "sale/room/room-restart.lua");
    }

    /**
     * @param windowOpen      whether the caller's clock says the arrival window is still open
     * @param solvedChallenge spent with the join when not null, remembered for {@code remembered}
     * @param keysExpireAt    when the room's keys go (some time after the sale ends)
     */
    Joined join(long voucherId, long shopperId, boolean windowOpen, String solvedChallenge, Duration remembered,
            Instant keysExpireAt) {
        List<Object> keys = new ArrayList<>(List.of(VoucherKeys.roomPlaces(voucherId), VoucherKeys.roomLate(voucherId),
                VoucherKeys.roomClosed(voucherId), VoucherKeys.roomControl(voucherId)));
        if (solvedChallenge != null) {
            keys.add(VoucherKeys.solvedChallenge(voucherId, solvedChallenge));
        }
        List<Object> answer = join.evalList(keys, Long.toString(shopperId), windowOpen ? "1" : "",
                remembered.toMillis(), keysExpireAt.toEpochMilli());
        JoinOutcome outcome = switch (((Number) answer.get(0)).intValue()) {
            case 0 -> JoinOutcome.ALREADY_IN;
            case 1 -> JoinOutcome.IN_THE_DRAW;
            case 2 -> JoinOutcome.BEHIND_THE_DRAW;
            case -2 -> JoinOutcome.CLOSED;
            default -> JoinOutcome.SOLUTION_SPENT;
        };
        return new Joined(outcome, ((Number) answer.get(1)).longValue());
    }

    /**
     * Admissions are paced and timed by Redis's clock ({@code room-place.lua}); the caller's only says the draw is due.
     * The shopper's poll limit ({@code pollLimit}) is counted in the same call: {@code POLLED_TOO_OFTEN} with the
     * milliseconds until its window ends.
     */
    Polled poll(long voucherId, long shopperId, boolean drawDue, Pace pace, String newTicket, Instant keysExpireAt,
            RateLimitSettings.Limit pollLimit) {
        return polled(place.evalList(placeKeys(voucherId, VoucherKeys.ticket(voucherId, shopperId),
                VoucherKeys.roomPolls(voucherId, shopperId)), Long.toString(shopperId), drawDue ? "1" : "0",
                pace.batchSize(), pace.batchInterval().toMillis(), pace.admissionLifetime().toMillis(), newTicket,
                keysExpireAt.toEpochMilli(), pollLimit.permits(), pollLimit.per().toMillis(), pace.presence().toMillis()));
    }

    /**
     * How a room lets its places in: {@code batchSize} every {@code batchInterval}, each admission held for the
     * {@code presence} window until its shopper looks, then for its {@code admissionLifetime} from when they were let in.
     */
    record Pace(int batchSize, Duration batchInterval, Duration presence, Duration admissionLifetime) {
    }

    /**
     * The room's public state, as {@link #poll} reads it for nobody in particular (state {@code IN_THE_DRAW},
     * {@code WAITING} or {@code SOLD_OUT}, rank -1, {@code held} always told); it lets a due batch in as a poll does.
     */
    Polled serving(long voucherId, boolean drawDue, Pace pace, Instant keysExpireAt) {
        // no shopper, no ticket nor poll counter: the script never touches KEYS[6] and KEYS[9] for the public state
        String unused = VoucherKeys.roomPlaces(voucherId);
        return polled(place.evalList(placeKeys(voucherId, unused, unused), "", drawDue ? "1" : "0", pace.batchSize(),
                pace.batchInterval().toMillis(), pace.admissionLifetime().toMillis(), "", keysExpireAt.toEpochMilli(), 0,
                0, pace.presence().toMillis()));
    }

    private static List<Object> placeKeys(long voucherId, String ticketKey, String pollsKey) {
        return List.of(VoucherKeys.roomPlaces(voucherId), VoucherKeys.roomClosed(voucherId),
                VoucherKeys.roomAdmitted(voucherId), VoucherKeys.roomNextBatch(voucherId),
                VoucherKeys.roomAdmittedAt(voucherId), ticketKey, VoucherKeys.stock(voucherId),
                VoucherKeys.roomOpenAdmissions(voucherId), pollsKey, VoucherKeys.roomDrawn(voucherId),
                VoucherKeys.roomRequeued(voucherId), VoucherKeys.roomSpent(voucherId), VoucherKeys.buyers(voucherId),
                VoucherKeys.syncUnits(voucherId), VoucherKeys.syncUnitsReturned(voucherId),
                VoucherKeys.roomControl(voucherId));
    }

    /**
     * A shopper whose admission ran out unused queues again behind everyone ({@code room-again.lua}); anyone else keeps
     * the place they have.
     *
     * @return the shopper's rank from 0 after the call; -1 when they are not in the room, -2 when an admin closed it
     */
    long queueAgain(long voucherId, long shopperId, Instant keysExpireAt) {
        return again.evalLong(List.of(VoucherKeys.roomPlaces(voucherId), VoucherKeys.roomLate(voucherId),
                VoucherKeys.roomRequeued(voucherId), VoucherKeys.roomAdmitted(voucherId),
                VoucherKeys.roomOpenAdmissions(voucherId), VoucherKeys.roomSpent(voucherId),
                VoucherKeys.roomAdmittedAt(voucherId), VoucherKeys.buyers(voucherId), VoucherKeys.roomControl(voucherId)),
                Long.toString(shopperId), keysExpireAt.toEpochMilli());
    }

    private static Polled polled(List<Object> answer) {
        long flags = number(answer, 9);
        return new Polled(PlaceState.values()[((Number) answer.get(0)).intValue()], number(answer, 1),
                number(answer, 2), number(answer, 3), number(answer, 4), (String) answer.get(5), number(answer, 6),
                number(answer, 7), (int) number(answer, 8), (flags & 1) != 0, number(answer, 10), (flags & 4) != 0,
                (flags & 8) != 0);
    }

    /** What an admin set of the room. */
    Control control(long voucherId) {
        Map<String, String> set = redisson.<String, String>getMap(VoucherKeys.roomControl(voucherId), StringCodec.INSTANCE)
                .readAllMap();
        return new Control("1".equals(set.get("paused")), "1".equals(set.get("closed")),
                Integer.parseInt(set.getOrDefault("rate", "0")));
    }

    /**
     * Sets what an admin changes of the room (a null leaves it as it is): read by every poll in its one script, so the
     * change holds on every instance from the next poll. Kept as long as the room's keys.
     */
    Control control(long voucherId, Boolean paused, Integer rate, Boolean closed, Instant keysExpireAt) {
        Map<String, String> changes = new java.util.HashMap<>();
        if (paused != null) {
            changes.put("paused", paused ? "1" : "0");
        }
        if (rate != null) {
            changes.put("rate", Integer.toString(rate));
        }
        if (Boolean.TRUE.equals(closed)) {
            changes.put("closed", "1");
        }
        if (!changes.isEmpty()) {
            var map = redisson.<String, String>getMap(VoucherKeys.roomControl(voucherId), StringCodec.INSTANCE);
            map.putAll(changes);
            map.expireAt(keysExpireAt.toEpochMilli());
        }
        return control(voucherId);
    }

    /**
     * The lottery's entrants: in place order once {@code drawn}, else in no particular order (their numbers still to
     * be written by {@link #number}).
     */
    record Entrants(boolean drawn, List<String> shopperIds) {
    }

    /** The lottery's entrants once its arrival window has closed (closing it, when {@code drawDue}); null before. */
    Entrants entrants(long voucherId, boolean drawDue, Instant keysExpireAt) {
        List<String> answer = draw.evalStrings(List.of(VoucherKeys.roomPlaces(voucherId),
                VoucherKeys.roomClosed(voucherId), VoucherKeys.roomDrawn(voucherId)), drawDue ? "1" : "0",
                keysExpireAt.toEpochMilli());
        return answer == null ? null : new Entrants("1".equals(answer.get(0)), answer.subList(1, answer.size()));
    }

    /**
     * Writes the entrants' lottery numbers and marks the room drawn, unless it is already.
     *
     * @return false when they were not written: the entrants are not the ones numbered, or the window is not closed
     */
    boolean number(long voucherId, Map<String, Long> numbers, Instant keysExpireAt) {
        List<Object> args = new ArrayList<>(2 + 2 * numbers.size());
        args.add(keysExpireAt.toEpochMilli());
        args.add(numbers.size());
        numbers.forEach((shopper, number) -> {
            args.add(number);
            args.add(shopper);
        });
        return number.evalLong(List.of(VoucherKeys.roomPlaces(voucherId), VoucherKeys.roomClosed(voucherId),
                VoucherKeys.roomDrawn(voucherId)), args.toArray()) == 1;
    }

    RoomNumbers numbers(long voucherId) {
        List<Object> answer = numbers.evalList(List.of(VoucherKeys.roomPlaces(voucherId),
                VoucherKeys.roomAdmitted(voucherId), VoucherKeys.roomOpenAdmissions(voucherId),
                VoucherKeys.roomDrawn(voucherId)));
        long inRoom = number(answer, 0);
        long letIn = number(answer, 1);
        return new RoomNumbers(inRoom, letIn, inRoom - letIn, number(answer, 2), number(answer, 3) == 1);
    }

    /** Whether the shopper holds a place in the room. */
    boolean isIn(long voucherId, long shopperId) {
        return redisson.getScoredSortedSet(VoucherKeys.roomPlaces(voucherId), StringCodec.INSTANCE)
                .getScore(Long.toString(shopperId)) != null;
    }

    /**
     * A fresh sale (its orders deleted): the room lets its places in again from the front ({@code room-restart.lua}).
     * The places, the draw and the late arrivals stay, so the published order still holds.
     */
    void restartAdmissions(long voucherId) {
        restart.evalLong(List.of(VoucherKeys.roomRequeued(voucherId), VoucherKeys.roomAdmitted(voucherId),
                VoucherKeys.roomNextBatch(voucherId), VoucherKeys.roomAdmittedAt(voucherId),
                VoucherKeys.roomOpenAdmissions(voucherId), VoucherKeys.roomSpent(voucherId),
                VoucherKeys.roomControl(voucherId)));
    }

    private static long number(List<Object> answer, int index) {
        return ((Number) answer.get(index)).longValue();
    }
}
