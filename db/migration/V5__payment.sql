-- Runs on MySQL 8 and MariaDB 10.11. Owned by the payment module (dev.seckill.payment).
-- Our side of the payments: what we asked the provider for, and which of its notifications we have handled.

CREATE TABLE payment (
    id           VARCHAR(64)  NOT NULL PRIMARY KEY COMMENT 'the provider''s payment reference',
    order_id     BIGINT       NOT NULL,
    amount_cents BIGINT       NOT NULL,
    status       VARCHAR(16)  NOT NULL COMMENT 'OPEN, SUCCEEDED, CANCELED, CLOSED, REFUNDING, REFUNDED',
    checkout_url VARCHAR(512) NOT NULL,
    created_at   DATETIME(3)  NOT NULL,
    updated_at   DATETIME(3)  NOT NULL,
    CONSTRAINT chk_payment_amount CHECK (amount_cents >= 0),
    KEY idx_payment_order (order_id),
    KEY idx_payment_status (status)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;

-- One row per notification handled: the provider delivers at least once, so its event id decides.
CREATE TABLE payment_event (
    event_id    VARCHAR(64) NOT NULL PRIMARY KEY,
    payment_id  VARCHAR(64) NOT NULL,
    type        VARCHAR(32) NOT NULL,
    outcome     VARCHAR(32) NOT NULL COMMENT 'what handling it did: PAID, REFUNDING, IGNORED, ...',
    received_at DATETIME(3) NOT NULL,
    KEY idx_payment_event_payment (payment_id)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
