-- Runs on MySQL 8 and MariaDB 10.11. Owned by the sandbox module (dev.seckill.sandbox).
-- The sandbox honours an Idempotency-Key on opening a payment, as real providers do: a shop whose request reached the
-- provider but whose answer was lost (a timeout, a cut connection) asks again with the same key and gets the payment
-- it already opened, not a second one it would never know of. NULL: opened without a key (each call a new payment).
ALTER TABLE sandbox_payment
    ADD COLUMN idempotency_key VARCHAR(128) NULL COMMENT 'the shop''s Idempotency-Key of the opening call',
    ADD CONSTRAINT uk_sandbox_payment_idempotency UNIQUE (idempotency_key);
