package dev.seckill.sale.room;

import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.Positive;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/** What the shop's admins do to a running waiting room: pause it, change its rate, close it. */
@RestController
class RoomAdminController {

    private final WaitingRooms rooms;

    RoomAdminController(WaitingRooms rooms) {
        this.rooms = rooms;
    }

    /**
     * Each field left out (or null) stays as it is.
     *
     * @param paused              true: nobody more is let in until false (admissions given stay good)
     * @param admissionsPerSecond the places let in a second from now on, as a voucher's creation takes it
     * @param closed              true: for good, nobody more joins or is let in; false is refused once closed
     */
    record RoomControlRequest(Boolean paused,
            @Min(value = 1, message = "at least one place a second") @Max(value = 100_000,
                    message = "at most 100,000 places a second") Integer admissionsPerSecond,
            Boolean closed) {
    }

    @GetMapping("/admin/vouchers/{voucherId}/room")
    RoomControl control(@PathVariable @Positive long voucherId) {
        return rooms.control(voucherId);
    }

    @PutMapping("/admin/vouchers/{voucherId}/room")
    RoomControl control(@PathVariable @Positive long voucherId, @Valid @RequestBody RoomControlRequest request) {
        return rooms.control(voucherId, request.paused(), request.admissionsPerSecond(), request.closed());
    }
}
