package dev.seckill.payment.web;

import dev.seckill.payment.PaymentService;
import dev.seckill.payment.PaymentService.StartedPayment;
import dev.seckill.ratelimit.ShopperRateLimits;
import dev.seckill.web.security.CurrentShopper;
import jakarta.validation.constraints.Positive;
import org.springframework.http.HttpStatus;
import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

/** The shopper starts paying their order: the answer says where (the provider's checkout), how much and until when. */
@RestController
class PaymentController {

    private final PaymentService payments;
    private final ShopperRateLimits rateLimits;

    PaymentController(PaymentService payments, ShopperRateLimits rateLimits) {
        this.payments = payments;
        this.rateLimits = rateLimits;
    }

    @PostMapping({"/orders/{orderId}/payment", "/shop/orders/{orderId}/payment"})
    @ResponseStatus(HttpStatus.CREATED)
    StartedPayment start(@PathVariable @Positive long orderId, @AuthenticationPrincipal CurrentShopper shopper) {
        rateLimits.requireOrderReadPermit(shopper.id());
        return payments.start(orderId, shopper.id());
    }
}
