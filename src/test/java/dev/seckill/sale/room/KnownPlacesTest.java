package dev.seckill.sale.room;

import java.time.Duration;
import java.time.Instant;

import dev.seckill.support.SteppingClock;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Which polls an instance answers without Redis: a known shopper still behind a room read within the last second. */
class KnownPlacesTest {

    static final Instant T0 = Instant.parse("2026-11-29T10:00:00Z");
    static final long ROOM = 7;

    SteppingClock clock = SteppingClock.at(T0);
    KnownPlaces known = new KnownPlaces(clock, Duration.ofSeconds(1), 1_000);

    static RoomStore.Polled polled(PlaceState state, long rank, long admitted, long stock) {
        return new RoomStore.Polled(state, rank, admitted, 100, stock, "", 0, 2, 0, false, 0, false, false);
    }

    @Test
    void aShopperKnownToBeBehindTheRoomReadAMomentAgoIsAnsweredFromMemory() {
        assertThat(known.waiting(ROOM, 1)).as("never polled").isNull();
        known.polled(ROOM, 1, polled(PlaceState.WAITING, 40, 10, 50));

        KnownPlaces.Known waiting = known.waiting(ROOM, 1);
        assertThat(waiting.rank()).isEqualTo(40);
        assertThat(waiting.room()).isEqualTo(new KnownPlaces.Room(10, 100, 50, 2, 0, false, 0, T0.toEpochMilli()));
        assertThat(known.waiting(ROOM, 2)).as("another shopper").isNull();
        assertThat(known.waiting(ROOM + 1, 1)).as("another room").isNull();

        clock.set(T0.plusMillis(1_001));
        assertThat(known.waiting(ROOM, 1)).as("the room's numbers a second old: Redis again").isNull();
    }

    @Test
    void oncePlacesLetInReachTheShopperRedisAnswersTheirTurn() {
        known.polled(ROOM, 1, polled(PlaceState.WAITING, 40, 10, 50));
        known.served(ROOM, new RoomStore.Polled(PlaceState.WAITING, -1, 41, 100, 50, "", 0, 2, 0, false, 0, false, false));
        assertThat(known.waiting(ROOM, 1)).isNull();
    }

    @Test
    void aSoldOutRoomIsAnsweredFromMemoryForEveryKnownShopper() {
        known.polled(ROOM, 1, polled(PlaceState.WAITING, 3, 10, 50));
        assertThat(known.waiting(ROOM, 1)).as("let in: Redis has the admission").isNull();
        known.served(ROOM, new RoomStore.Polled(PlaceState.SOLD_OUT, -1, 10, 100, 0, "", 0, 0, 0, false, 0, false, false));
        assertThat(known.waiting(ROOM, 1).room().stock()).isZero();
    }

    @Test
    void whatCannotBeTrustedIsNotKept() {
        known.polled(ROOM, 1, polled(PlaceState.ADMITTED, 3, 10, 50));
        known.polled(ROOM, 2, polled(PlaceState.WAITING, 40, 10, -1));
        assertThat(known.waiting(ROOM, 1)).as("let in: its numbers carry no held units").isNull();
        assertThat(known.waiting(ROOM, 2)).as("the counter missing from Redis").isNull();

        known.polled(ROOM, 2, polled(PlaceState.WAITING, 40, 10, 50));
        known.forget(ROOM);
        assertThat(known.waiting(ROOM, 2)).as("a fresh sale").isNull();
    }
}
