-- How long an order of this voucher waits for its payment: its pay_by is its acceptance time plus this. Set when the
-- voucher is created (the admin's, or the instances' seckill.payment.window then), so every instance gives the
-- voucher's orders the same window whatever its own setting. NULL: a voucher created before the window was the
-- voucher's; its orders get the instances' seckill.payment.window, as all orders did before.
ALTER TABLE seckill_voucher
    ADD COLUMN payment_window_ms BIGINT NULL COMMENT 'payment window in milliseconds; NULL = seckill.payment.window',
    ADD CONSTRAINT chk_seckill_voucher_payment_window CHECK (payment_window_ms IS NULL OR payment_window_ms > 0);
