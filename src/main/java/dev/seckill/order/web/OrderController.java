package dev.seckill.order.web;

import dev.seckill.order.OrderSettlement;
import dev.seckill.order.OwnOrders;
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

    private final OwnOrders ownOrders;
    private final OrderSettlement settlement;
    private final ShopperRateLimits rateLimits;

    OrderController(OwnOrders ownOrders, OrderSettlement settlement, ShopperRateLimits rateLimits) {
        this.ownOrders = ownOrders;
        this.settlement = settlement;
        this.rateLimits = rateLimits;
    }

    /** The shopper gives up their order before paying: its unit goes back on sale. Sent again, it answers the same. */
    @PostMapping({"/orders/{orderId}/cancel", "/shop/orders/{orderId}/cancel"})
    OrderView cancel(@PathVariable @Positive long orderId, @AuthenticationPrincipal CurrentShopper shopper) {
        rateLimits.requireOrderReadPermit(shopper.id());
        return settlement.cancel(orderId, shopper.id());
    }

    @GetMapping({"/orders/{orderId}", "/shop/orders/{orderId}"})
    OrderView get(@PathVariable @Positive long orderId, @AuthenticationPrincipal CurrentShopper shopper) {
        rateLimits.requireOrderReadPermit(shopper.id());
        return ownOrders.findOwn(orderId, shopper.id());
    }

    /**
     * The caller's own order of a voucher: for a shopper whose answer to {@code POST /seckill/{id}} was
     * lost (their order may well exist), and for the voucher page, which shows a returning shopper their order.
     * Limited like {@code GET /orders/{orderId}}: same permits.
     */
    @GetMapping({"/orders", "/shop/orders"})
    OrderView getByVoucher(@RequestParam @Positive long voucherId, @AuthenticationPrincipal CurrentShopper shopper) {
        rateLimits.requireOrderReadPermit(shopper.id());
        return ownOrders.findOwnForVoucher(shopper.id(), voucherId);
    }
}
