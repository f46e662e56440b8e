/**
 * The sandbox payment provider: a provider like Stripe's or Alipay's, run inside the instance so that payments work
 * end to end without one, and misbehaving on purpose in the ways real ones do. The payment module sees it only
 * through the {@link dev.seckill.payment.PaymentGateway} port ({@link dev.seckill.sandbox.SandboxGateway}: open,
 * close, refund, status); nothing else uses this module.
 * <p>
 * Owns {@code sandbox_payment} (the provider's payments: OPEN until paid, abandoned by the shopper, closed by the
 * merchant, refunded) and {@code sandbox_delivery} (the webhook notifications it owes), both of
 * {@code db/migration/V6__sandbox_payment.sql}. Every move of a payment is one guarded UPDATE, and the notifications
 * it owes are queued in the same transaction: {@code payment.processing} then {@code payment.succeeded} when the
 * shopper pays, {@code payment.canceled} when they abandon, {@code refund.succeeded} on a refund (a merchant's close
 * sends none). The shopper pays or abandons on the checkout page, {@code /sandbox/checkout/<ref>}
 * ({@code sandbox.web}), which a script can drive with one form POST.
 * <p>
 * {@link dev.seckill.sandbox.WebhookDeliverer}s on every instance post the notifications, signed
 * ({@link dev.seckill.payment.WebhookSignature}, with {@code seckill.payment.webhook.secret}), to
 * {@code seckill.sandbox.webhook-url}: at least once, retried with backoff until answered 2xx, each a random delay
 * late, some twice, those of one action out of order (see {@code SandboxSettings}). Off
 * ({@code seckill.sandbox.enabled=false}), none of its beans exists and {@code /sandbox/**} answers 404.
 */
@Owns(tables = {"sandbox_payment", "sandbox_delivery"})
package dev.seckill.sandbox;

import dev.seckill.Owns;
