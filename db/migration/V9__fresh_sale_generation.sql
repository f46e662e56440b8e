-- Runs on MySQL 8 and MariaDB 10.11. A stock reset that deletes the orders starts the sale afresh; an instance's
-- journal of the orders it accepted a moment ago (replayed into a new Redis master after a failover) can still hold
-- orders of the sale that reset ended, and must not bring them back.

-- Owned by the voucher module (dev.seckill.voucher): the sale's generation, one more after every fresh sale. Redis
-- keeps a copy (seckill:{id}:sale), written with the counter; every accepted order is journaled with it.
ALTER TABLE seckill_voucher
    ADD COLUMN sale_generation BIGINT NOT NULL DEFAULT 0
        COMMENT 'one more after every stock reset that deleted the orders: orders of an earlier one are not this sale''s';

-- Owned by the order module (dev.seckill.order): the orders a fresh sale deleted. One of them in voucher_order again
-- came back from the old sale (a replay, a write still on its way): the audit never calls such a sale consistent.
CREATE TABLE fresh_sale_deleted_order (
    order_id   BIGINT      NOT NULL PRIMARY KEY,
    voucher_id BIGINT      NOT NULL,
    deleted_at DATETIME(3) NOT NULL,
    KEY idx_fresh_sale_deleted_order_voucher (voucher_id)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;

-- Owned by the durability module (dev.seckill.durability): journaled orders a replay left out, as an earlier sale's.
ALTER TABLE redis_failover_replay
    ADD COLUMN voided INT NOT NULL DEFAULT 0 COMMENT 'journaled orders of a sale started afresh since: not put back';
