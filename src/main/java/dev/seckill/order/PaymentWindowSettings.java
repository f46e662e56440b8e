package dev.seckill.order;

import java.time.Duration;

import dev.seckill.voucher.DefaultPaymentWindow;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * @param window       how long an order in MySQL waits for its payment when its voucher was created without a window
 *                     of its own ({@code paymentWindow}): the voucher keeps the window this was when it was created,
 *                     and a voucher from before windows were per voucher follows this. {@code pay_by} is the order's
 *                     acceptance time plus the window; then it expires and its unit goes back on sale
 *                     ({@code SECKILL_PAYMENT_WINDOW=10s scripts/cluster up} for a short default)
 * @param expiryScan   how often every instance looks for orders past their {@code pay_by}; also the bound on the
 *                     lag between {@code pay_by} and the expiry (the {@code seckill.orders.expiry.lag} timer) while
 *                     the scans keep up, since each scan drains every due order in batches before it sleeps
 * @param expiryBatch  orders one scan takes (FOR UPDATE SKIP LOCKED) and ends in one transaction
 */
@Validated
@ConfigurationProperties("seckill.payment")
record PaymentWindowSettings(@NotNull @DefaultValue("15m") Duration window,
        @NotNull @DefaultValue("1s") Duration expiryScan,
        @Min(1) @Max(1000) @DefaultValue("50") int expiryBatch) implements DefaultPaymentWindow {
}
