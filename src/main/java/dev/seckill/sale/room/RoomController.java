package dev.seckill.sale.room;

import java.io.IOException;
import java.time.Duration;

import dev.seckill.web.security.CurrentShopper;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Positive;
import jakarta.validation.constraints.Size;
import org.springframework.http.CacheControl;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.context.request.WebRequest;
import tools.jackson.databind.ObjectWriter;
import tools.jackson.databind.json.JsonMapper;

/**
 * A voucher's waiting room: joining and the live place for scripts ({@code /seckill/...}, bearer token) and the buy
 * page ({@code /shop/seckill/...}, its cookie and CSRF token); the lottery's commitment and draw for anyone
 * ({@code /vouchers/{id}/room}).
 */
@RestController
class RoomController {

    private final WaitingRooms rooms;
    private final ObjectWriter placeJson;

    RoomController(WaitingRooms rooms, JsonMapper json) {
        this.rooms = rooms;
        this.placeJson = json.writerFor(RoomPlace.class);
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

    /**
     * Written straight to the response, as the purchase's answers are: a waiting shopper's look is answered from the
     * instance's memory, and Spring MVC's content negotiation and message converters would be most of its cost
     * (docs/security.md, the poll line of scripts/cost). A refusal is thrown and answered as everywhere else.
     */
    @GetMapping({"/seckill/{voucherId}/room/place", "/shop/seckill/{voucherId}/room/place"})
    void place(@PathVariable @Positive long voucherId, @AuthenticationPrincipal CurrentShopper shopper,
            HttpServletResponse response) throws IOException {
        byte[] body = placeJson.writeValueAsBytes(rooms.place(shopper.id(), voucherId));
        response.setStatus(HttpServletResponse.SC_OK);
        response.setContentType(MediaType.APPLICATION_JSON_VALUE);
        response.setHeader(HttpHeaders.CACHE_CONTROL, CacheControl.noStore().getHeaderValue());
        response.setContentLength(body.length);
        response.getOutputStream().write(body);
    }

    @GetMapping("/vouchers/{voucherId}/room")
    ResponseEntity<RoomDraw> announcement(@PathVariable @Positive long voucherId) {
        return ResponseEntity.ok().cacheControl(CacheControl.noCache()).body(rooms.announcement(voucherId));
    }

    /**
     * The same for everyone and a second old at most: Nginx keeps it for a second for the whole crowd (nginx/
     * seckill-server.conf), and a browser may too.
     */
    @GetMapping("/vouchers/{voucherId}/room/now")
    ResponseEntity<RoomNow> now(@PathVariable @Positive long voucherId) {
        return ResponseEntity.ok().cacheControl(CacheControl.maxAge(Duration.ofSeconds(1)).cachePublic())
                .body(rooms.now(voucherId));
    }

    /**
     * Final once drawn: a shared cache may keep it, a client that has it is answered 304 for its ETag, and one that
     * takes gzip gets the body gzipped (the list grows with the room: 20,000 entrants are about 420 KB).
     */
    @GetMapping("/vouchers/{voucherId}/room/draw")
    ResponseEntity<byte[]> draw(@PathVariable @Positive long voucherId,
            @RequestHeader(name = HttpHeaders.ACCEPT_ENCODING, required = false) String acceptEncoding,
            WebRequest request) {
        PublishedDraws.PublishedDraw published = rooms.publishedDraw(voucherId);
        CacheControl cache = CacheControl.maxAge(Duration.ofMinutes(5)).cachePublic();
        if (request.checkNotModified(published.etag())) {
            return ResponseEntity.status(HttpStatus.NOT_MODIFIED).cacheControl(cache).eTag(published.etag())
                    .varyBy(HttpHeaders.ACCEPT_ENCODING).build();
        }
        boolean gzip = acceptsGzip(acceptEncoding);
        ResponseEntity.BodyBuilder answer = ResponseEntity.ok().cacheControl(cache).eTag(published.etag())
                .varyBy(HttpHeaders.ACCEPT_ENCODING).contentType(MediaType.APPLICATION_JSON);
        if (gzip) {
            answer.header(HttpHeaders.CONTENT_ENCODING, "gzip");
        }
        return answer.body(gzip ? published.gzipped() : published.json());
    }

    /** Whether an Accept-Encoding takes gzip: named, and not with q=0. */
    static boolean acceptsGzip(String acceptEncoding) {
        if (acceptEncoding == null) {
            return false;
        }
        for (String coding : acceptEncoding.split(",")) {
            String[] parts = coding.trim().split(";");
            if (parts[0].trim().equalsIgnoreCase("gzip")) {
                for (int i = 1; i < parts.length; i++) {
                    String parameter = parts[i].trim().replace(" ", "");
                    if (parameter.matches("(?i)q=0(\\.0{0,3})?")) {
                        return false;
                    }
                }
                return true;
            }
        }
        return false;
    }
}
