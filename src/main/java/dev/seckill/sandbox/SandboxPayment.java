package dev.seckill.sandbox;

import java.time.Instant;

/** One row of {@code sandbox_payment}: what the checkout page shows and every notification of it carries. */
public record SandboxPayment(String ref, long orderId, long amountCents, SandboxStatus status, Instant payBy) {
}
