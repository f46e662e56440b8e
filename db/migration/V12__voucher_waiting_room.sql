-- A voucher's waiting room (dev.seckill.sale.room), fixed when the voucher is created. Everyone who joins in the
-- arrival window (from the sale's opening, this long) gets a place by a lottery drawn from room_seed; later arrivals
-- queue behind in arrival order; places are let in admissions_per_second at a time. room_seed is the lottery's
-- secret until the window closes: the shop publishes its SHA-256 before and the seed itself after. All three NULL:
-- no waiting room, the sale opens to everyone at once as before.
ALTER TABLE seckill_voucher
    ADD COLUMN arrival_window_ms BIGINT NULL COMMENT 'waiting room arrival window in milliseconds; NULL = no room',
    ADD COLUMN admissions_per_second INT NULL COMMENT 'waiting room places let in per second',
    ADD COLUMN room_seed CHAR(64) NULL COMMENT 'waiting room lottery seed, 32 random bytes in hex',
    ADD CONSTRAINT chk_seckill_voucher_room CHECK (
        (arrival_window_ms IS NULL AND admissions_per_second IS NULL AND room_seed IS NULL)
        OR (arrival_window_ms > 0 AND admissions_per_second > 0 AND CHAR_LENGTH(room_seed) = 64));
