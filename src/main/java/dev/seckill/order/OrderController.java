package dev.seckill.order;

import dev.seckill.user.CurrentShopper;
import jakarta.validation.constraints.Positive;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

@RestController
class OrderController {

    private final OrderQueries queries;

    OrderController(OrderQueries queries) {
        this.queries = queries;
    }

    @GetMapping("/orders/{orderId}")
    OrderView get(@PathVariable @Positive long orderId, CurrentShopper shopper) {
        return queries.findOwn(orderId, shopper.id());
    }
}
