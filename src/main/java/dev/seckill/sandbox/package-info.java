/**
 * The sandbox payment provider: a provider like Stripe's or Alipay's, run as a small service of its own
 * ({@link dev.seckill.sandbox.SandboxApplication}, its own jar) so that payments work end to end without a real one,
 * and misbehaving on purpose in the ways real ones do. It uses nothing of the shop's code and the shop nothing of it:
 * the shop calls its JSON API over HTTP ({@code /sandbox/api/payments}, with a shared secret:
 * {@link dev.seckill.sandbox.MerchantApi}: open, close, refund, state), the shopper's browser opens its checkout page,
 * and it posts its notifications to the shop's webhook.
 * <p>
 * Its tables are {@code sandbox_payment} (the provider's payments: OPEN until paid, abandoned by the shopper, closed
 * by the merchant, refunded) and {@code sandbox_delivery} (the webhook notifications it owes), in the shop's database
 * ({@code db/migration/V6__sandbox_payment.sql}; {@code V13__sandbox_payment_idempotency.sql} adds the opening's
 * idempotency key). Every move of a payment is one guarded UPDATE, and the notifications it owes are queued in the
 * same transaction: {@code payment.processing} then {@code payment.succeeded} when the
 * shopper pays, {@code payment.canceled} when they abandon, {@code refund.succeeded} on a refund (a merchant's close
 * sends none). The shopper pays or abandons on the checkout page, {@code /sandbox/checkout/<ref>}
 * ({@code sandbox.web}), which a script can drive with one form POST.
 * <p>
 * {@link dev.seckill.sandbox.WebhookDeliverer} posts the notifications, signed with the shop's webhook secret
 * ({@code seckill.sandbox.webhook-secret}), to {@code seckill.sandbox.webhook-url}: at least once, retried with backoff
 * until answered 2xx, each a random delay late, some twice, those of one action out of order (see
 * {@code SandboxSettings}).
 */
package dev.seckill.sandbox;
