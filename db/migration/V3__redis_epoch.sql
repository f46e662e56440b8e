-- Runs on MySQL 8 and MariaDB 10.11. Owned by the durability module (dev.seckill.durability).
-- Redis holds accepted orders until they reach MySQL, so a Redis that loses its data loses orders.
-- MySQL remembers which "epoch" of Redis data it last saw; Redis keeps the same marker under the key
-- seckill:epoch. A marker that disappears from Redis (a flush, a restart without persistence) is a loss.

CREATE TABLE redis_epoch (
    id         TINYINT     NOT NULL PRIMARY KEY COMMENT 'always 1: one Redis data set per database',
    epoch      CHAR(36)    NOT NULL COMMENT 'the marker Redis should hold under seckill:epoch',
    generation BIGINT      NOT NULL COMMENT 'one more after every loss: moving it on is how one instance, and only one, records a loss',
    since      DATETIME(3) NOT NULL,
    CONSTRAINT chk_redis_epoch_single CHECK (id = 1)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;

CREATE TABLE redis_data_loss (
    id          BIGINT       NOT NULL AUTO_INCREMENT PRIMARY KEY,
    lost_epoch  CHAR(36)     NOT NULL COMMENT 'the marker that disappeared',
    generation  BIGINT       NOT NULL COMMENT 'the generation it belonged to: one row per loss, however many instances saw it',
    detected_at DATETIME(3)  NOT NULL,
    detected_by VARCHAR(128) NOT NULL COMMENT 'instance id',
    last_voucher_id BIGINT   NOT NULL COMMENT 'the newest voucher when the loss was seen: it and every older one may have lost orders',
    CONSTRAINT uk_redis_data_loss_generation UNIQUE (generation),
    KEY idx_redis_data_loss_detected (detected_at)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
