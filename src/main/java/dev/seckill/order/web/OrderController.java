package dev.seckill.order.web;

import dev.seckill.order.OrderLifecycle;
import dev.seckill.order.OrderQueries;
import dev.seckill.order.OrderView;

import dev.seckill.ratelimit.ShopperRateLimits;
import dev.seckill.web.security.CurrentShopper;
import jakarta.validation.constraints.Positive;
import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

@RestController
class OrderController {

    private final OrderQueries queries;
    private final OrderLifecycle lifecycle;
    private final ShopperRateLimits rateLimits;

    OrderController(OrderQueries queries, OrderLifecycle lifecycle, ShopperRateLimits rateLimits) {
        this.queries = queries;
        this.lifecycle = lifecycle;
        this.rateLimits = rateLimits;
    }

    /** The shopper gives up their order before paying: its unit goes back on sale. Sent again, it answers the same. */
    @PostMapping({"/orders/{orderId}/cancel", "/shop/orders/{orderId}/cancel"})
    OrderView cancel(@PathVariable @Positive long orderId, @AuthenticationPrincipal CurrentShopper shopper) {
        rateLimits.requireOrderReadPermit(shopper.id());
        return lifecycle.cancel(orderId, shopper.id());
    }

    @GetMapping({"/orders/{orderId}", "/shop/orders/{orderId}"})
    OrderView get(@PathVariable @Positive long orderId, @AuthenticationPrincipal CurrentShopper shopper) {
        rateLimits.requireOrderReadPermit(shopper.id());
        return queries.findOwn(orderId, shopper.id());
    }

    /**
     * The caller's own order of a voucher: for a shopper whose answer to {@code POST /seckill/{id}} was
     * lost (their order may well exist), and for the voucher page, which shows a returning shopper their order.
     * Limited like {@code GET /orders/{orderId}}: same permits.
     */
    @GetMapping({"/orders", "/shop/orders"})
    OrderView getByVoucher(@RequestParam @Positive long voucherId, @AuthenticationPrincipal CurrentShopper shopper) {
        rateLimits.requireOrderReadPermit(shopper.id());
        return queries.findOwnForVoucher(shopper.id(), voucherId);
    }
}
