-- Runs on MySQL 8 and MariaDB 10.11. Owned by the order module (dev.seckill.order).
-- An order in MySQL now waits for its payment: AWAITING_PAYMENT until pay_by, then PAID, or EXPIRED (the window
-- ran out) or CANCELLED (by its shopper). Each move is one guarded UPDATE ... WHERE id = ? AND status = ?.
-- Orders written before payments existed were final: they count as paid.

ALTER TABLE voucher_order
    ADD COLUMN pay_by DATETIME(3) NULL COMMENT 'AWAITING_PAYMENT until then (UTC); NULL for orders older than payments',
    ADD COLUMN ended_at DATETIME(3) NULL COMMENT 'when it became PAID, EXPIRED or CANCELLED',
    ADD COLUMN unit_return_due DATETIME(3) NULL
        COMMENT 'EXPIRED or CANCELLED, its unit back in MySQL''s stock but not yet confirmed back in Redis; NULL otherwise';

UPDATE voucher_order SET status = 'PAID', ended_at = created_at WHERE status = 'CONFIRMED';

-- The expiry scan: the oldest AWAITING_PAYMENT orders whose pay_by has passed, in index order.
CREATE INDEX idx_voucher_order_status_pay_by ON voucher_order (status, pay_by);
-- Units returned to MySQL whose return to Redis is still to be confirmed (normally for a few milliseconds).
CREATE INDEX idx_voucher_order_unit_return_due ON voucher_order (unit_return_due);
