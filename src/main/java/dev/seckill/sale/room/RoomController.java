package dev.seckill.sale.room;

import dev.seckill.web.security.CurrentShopper;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Positive;
import jakarta.validation.constraints.Size;
import org.springframework.http.CacheControl;
import org.springframework.http.ResponseEntity;
import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/**
 * A voucher's waiting room: joining and the live place for scripts ({@code /seckill/...}, bearer token) and the buy
 * page ({@code /shop/seckill/...}, its cookie and CSRF token); the lottery's commitment and draw for anyone
 * ({@code /vouchers/{id}/room}).
 */
@RestController
class RoomController {

    private final WaitingRooms rooms;

    RoomController(WaitingRooms rooms) {
        this.rooms = rooms;
    }

    /** @param solution the challenge widget's payload (base64), where tickets are asked */
    record JoinRequest(@Size(max = 4_096, message = "a solution is about 300 characters") String solution) {
    }

    @PostMapping({"/seckill/{voucherId}/room", "/shop/seckill/{voucherId}/room"})
    ResponseEntity<RoomPlace> join(@PathVariable @Positive long voucherId,
            @RequestBody(required = false) @Valid JoinRequest request, @AuthenticationPrincipal CurrentShopper shopper) {
        return ResponseEntity.ok().cacheControl(CacheControl.noStore())
                .body(rooms.join(shopper.id(), voucherId, request == null ? null : request.solution()));
    }

    @GetMapping({"/seckill/{voucherId}/room/place", "/shop/seckill/{voucherId}/room/place"})
    ResponseEntity<RoomPlace> place(@PathVariable @Positive long voucherId,
            @AuthenticationPrincipal CurrentShopper shopper) {
        return ResponseEntity.ok().cacheControl(CacheControl.noStore()).body(rooms.place(shopper.id(), voucherId));
    }

    @GetMapping("/vouchers/{voucherId}/room")
    ResponseEntity<RoomDraw> announcement(@PathVariable @Positive long voucherId) {
        return ResponseEntity.ok().cacheControl(CacheControl.noCache()).body(rooms.announcement(voucherId));
    }

    /** Final once drawn: a shared cache may keep it. */
    @GetMapping("/vouchers/{voucherId}/room/draw")
    ResponseEntity<RoomDraw> draw(@PathVariable @Positive long voucherId) {
        return ResponseEntity.ok().cacheControl(CacheControl.maxAge(java.time.Duration.ofMinutes(5)).cachePublic())
                .body(rooms.draw(voucherId));
    }
}
