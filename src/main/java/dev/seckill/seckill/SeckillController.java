package dev.seckill.seckill;

import com.fasterxml.jackson.annotation.JsonFormat;
import dev.seckill.user.CurrentShopper;
import jakarta.validation.constraints.Positive;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

@RestController
class SeckillController {

    private final SeckillService seckill;

    SeckillController(SeckillService seckill) {
        this.seckill = seckill;
    }

    @PostMapping("/seckill/{voucherId}")
    @ResponseStatus(HttpStatus.CREATED)
    OrderPlaced place(@PathVariable @Positive long voucherId, CurrentShopper shopper) {
        return new OrderPlaced(seckill.placeOrder(shopper.id(), voucherId), voucherId);
    }

    /** The id goes out as a string: a 64-bit id does not survive a JavaScript number. */
    record OrderPlaced(@JsonFormat(shape = JsonFormat.Shape.STRING) long orderId, long voucherId) {
    }
}
