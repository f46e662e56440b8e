/**
 * Payments, our side: the {@link dev.seckill.payment.PaymentGateway} port a provider adapter implements, the payments
 * we opened ({@code payment}) and the provider's notifications we handled ({@code payment_event}), both tables of
 * {@code db/migration/V5__payment.sql}. The webhook checks each notification's signature
 * ({@link dev.seckill.payment.WebhookSignature}), handles each event id once, and moves the order through the order
 * module's guarded transitions; a payment that arrives for an order that expired or was cancelled is refunded.
 * Web adapter: {@code payment.web}.
 */
@Owns(tables = {"payment", "payment_event"})
package dev.seckill.payment;

import dev.seckill.Owns;
