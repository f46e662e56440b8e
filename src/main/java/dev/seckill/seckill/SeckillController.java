package dev.seckill.seckill;

import com.fasterxml.jackson.annotation.JsonFormat;
import dev.seckill.SeckillSettings;
import dev.seckill.user.CurrentShopper;
import jakarta.validation.constraints.Positive;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

@RestController
class SeckillController {

    private final SeckillService sync;
    private final AsyncSeckillService async;
    private final boolean asyncMode;

    SeckillController(SeckillService sync, AsyncSeckillService async, SeckillSettings settings) {
        this.sync = sync;
        this.async = async;
        this.asyncMode = settings.async();
    }

    /**
     * Sync mode answers 201 CONFIRMED (the order is in MySQL); async mode answers 202 PENDING (the
     * order is accepted and on its way: {@code GET /orders/{orderId}} follows it to CONFIRMED).
     */
    @PostMapping("/seckill/{voucherId}")
    ResponseEntity<OrderPlaced> place(@PathVariable @Positive long voucherId, CurrentShopper shopper) {
        if (asyncMode) {
            long orderId = async.placeOrder(shopper.id(), voucherId);
            return ResponseEntity.status(HttpStatus.ACCEPTED).body(new OrderPlaced(orderId, voucherId, "PENDING"));
        }
        long orderId = sync.placeOrder(shopper.id(), voucherId);
        return ResponseEntity.status(HttpStatus.CREATED).body(new OrderPlaced(orderId, voucherId, "CONFIRMED"));
    }

    /** The id goes out as a string: a 64-bit id does not survive a JavaScript number. */
    record OrderPlaced(@JsonFormat(shape = JsonFormat.Shape.STRING) long orderId, long voucherId, String status) {
    }
}
