package dev.seckill.sale.room;

import java.time.Clock;
import java.time.Duration;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;

/**
 * What this instance already knows of its rooms, so that a waiting shopper's poll is answered without Redis: a
 * shopper's rank never changes once the room is drawn, and the room's numbers (places let in, units left and held)
 * were read a moment ago by another poll or by the public state. A poll whose shopper is known, in a room read within
 * the last {@link #maxAge}, and who is still behind the places let in (or the room sold out), is answered from here,
 * at the cost of a refusal; every other poll (the shopper's turn may have come) asks Redis, which also refreshes the
 * room's numbers. An answer from here is at most {@link #maxAge} old, as the public state Nginx caches is.
 */
@Component
class KnownPlaces {

    /** Shoppers remembered across rooms: about 150 bytes each, 15 MB at most. */
    static final long MAX_SHOPPERS = 100_000;

    /**
     * A room's numbers as read from Redis (see {@link RoomStore.Polled}), and when (the clock's millis): what a waiting
     * place is told.
     */
    record Room(long admitted, long size, long stock, long held, int rate, boolean paused, long spent,
            long readAtMillis) {

        static Room of(RoomStore.Polled polled, long readAtMillis) {
            return new Room(polled.admitted(), polled.size(), polled.stock(), polled.held(), polled.rate(),
                    polled.paused(), polled.spent(), readAtMillis);
        }
    }

    /** A shopper known to be waiting (or told sold out), and their room's numbers. */
    record Known(long rank, Room room) {
    }

    private record Seat(long voucherId, long shopperId) {
    }

    private final Cache<Seat, Long> ranks;
    private final Cache<Long, Room> rooms = Caffeine.newBuilder().maximumSize(10_000).build();
    private final Clock clock;
    private final long maxAgeMillis;

    @Autowired
    KnownPlaces(RoomSettings settings, Clock clock) {
        this(clock, maxAge(settings), MAX_SHOPPERS);
    }

    KnownPlaces(Clock clock, Duration maxAge, long maxShoppers) {
        this.clock = clock;
        this.maxAgeMillis = maxAge.toMillis();
        // evictions on the calling thread: handing them to the common pool costs more than doing them
        this.ranks = Caffeine.newBuilder().executor(Runnable::run).maximumSize(maxShoppers).build();
    }

    /** At most a second, and never more than a batch interval: a batch let in since is seen by the next poll. */
    static Duration maxAge(RoomSettings settings) {
        Duration second = Duration.ofSeconds(1);
        return settings.batchInterval().compareTo(second) < 0 ? settings.batchInterval() : second;
    }

    /** A poll's answer from Redis: the shopper's rank once waiting or sold out, and the room's numbers it carries. */
    void polled(long voucherId, long shopperId, RoomStore.Polled polled) {
        if (polled.state() == PlaceState.WAITING || polled.state() == PlaceState.SOLD_OUT) {
            if (!polled.queuedAgain()) {
                ranks.put(new Seat(voucherId, shopperId), polled.rank());
            }
            room(voucherId, polled);
        }
    }

    /** The room's public state as read from Redis. */
    void served(long voucherId, RoomStore.Polled served) {
        if (served.state() == PlaceState.WAITING || served.state() == PlaceState.SOLD_OUT) {
            room(voucherId, served);
        }
    }

    /** The shopper's rank and the room's numbers, when this instance can answer their poll; null when Redis must. */
    Known waiting(long voucherId, long shopperId) {
        Room room = rooms.getIfPresent(voucherId);
        if (room == null || clock.millis() - room.readAtMillis() > maxAgeMillis) {
            return null;
        }
        Long rank = ranks.getIfPresent(new Seat(voucherId, shopperId));
        if (rank == null || (room.stock() != 0 && rank < room.admitted())) {
            return null;
        }
        return new Known(rank, room);
    }

    /** A fresh sale lets the places in again from the front: nothing read before it holds. */
    void forget(long voucherId) {
        rooms.invalidate(voucherId);
    }

    private void room(long voucherId, RoomStore.Polled polled) {
        if (polled.stock() >= 0) {
            rooms.put(voucherId, Room.of(polled, clock.millis()));
        }
    }
}
