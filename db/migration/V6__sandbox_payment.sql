-- Runs on MySQL 8 and MariaDB 10.11. Owned by the sandbox module (dev.seckill.sandbox).
-- The sandbox payment provider's own books, as a real provider keeps them on its side: the payments it opened for
-- us, and the queue of webhook notifications it owes us. Nothing of ours reads them: our side is the payment
-- module's tables (V5). Each move of a payment is one guarded UPDATE ... WHERE ref = ? AND status = ?.

CREATE TABLE sandbox_payment (
    ref          VARCHAR(64) NOT NULL PRIMARY KEY COMMENT 'pay_<random url-safe>, the reference the merchant keeps',
    order_id     BIGINT      NOT NULL COMMENT 'the merchant''s order, echoed in every notification',
    amount_cents BIGINT      NOT NULL,
    status       VARCHAR(16) NOT NULL COMMENT 'OPEN, PAID, CANCELED (shopper abandoned), CLOSED (merchant closed), REFUNDED',
    pay_by       DATETIME(3) NOT NULL COMMENT 'payment is refused from then on (UTC)',
    created_at   DATETIME(3) NOT NULL,
    updated_at   DATETIME(3) NOT NULL,
    CONSTRAINT chk_sandbox_payment_amount CHECK (amount_cents >= 0)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;

-- The webhook notifications owed, at least once each. A row is pending while due_at is set: the deliverers claim
-- due rows (SELECT ... FOR UPDATE SKIP LOCKED, then due_at moved a lease ahead), post them, and set due_at to NULL
-- once done: delivered (delivered_at set; a duplicate on purpose keeps due_at for one more delivery) or given up
-- after the last attempt (delivered_at NULL, last_error says why).
CREATE TABLE sandbox_delivery (
    event_id     VARCHAR(64)  NOT NULL PRIMARY KEY COMMENT 'evt_<random url-safe>, the same on every delivery of it',
    payment_ref  VARCHAR(64)  NOT NULL,
    type         VARCHAR(32)  NOT NULL COMMENT 'payment.processing, payment.succeeded, payment.canceled, refund.succeeded',
    body         TEXT         NOT NULL COMMENT 'the JSON posted, byte for byte the same on every delivery',
    due_at       DATETIME(3)  NULL COMMENT 'next delivery attempt (UTC); NULL once nothing more is to be posted',
    attempts     INT          NOT NULL DEFAULT 0,
    delivered_at DATETIME(3)  NULL COMMENT 'first answered 2xx',
    last_error   VARCHAR(255) NULL,
    created_at   DATETIME(3)  NOT NULL,
    KEY idx_sandbox_delivery_due (due_at),
    KEY idx_sandbox_delivery_payment (payment_ref)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
