-- Runs on MySQL 8 and MariaDB 10.11. Times are UTC (the app forces the session time zone).

CREATE TABLE shopper (
    id         BIGINT       NOT NULL PRIMARY KEY COMMENT 'time-ordered id from the app',
    nickname   VARCHAR(64)  NOT NULL,
    created_at DATETIME(3)  NOT NULL
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;

CREATE TABLE voucher (
    id          BIGINT         NOT NULL AUTO_INCREMENT PRIMARY KEY,
    title       VARCHAR(120)   NOT NULL,
    description VARCHAR(2000)  NULL,
    price       DECIMAL(9, 2)  NOT NULL,
    created_at  DATETIME(3)    NOT NULL,
    CONSTRAINT chk_voucher_price CHECK (price >= 0)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;

CREATE TABLE seckill_voucher (
    voucher_id    BIGINT      NOT NULL PRIMARY KEY,
    stock         INT         NOT NULL COMMENT 'units left; only ever changed by a guarded UPDATE',
    initial_stock INT         NOT NULL COMMENT 'units ever put on sale: orders + stock',
    begin_time    DATETIME(3) NOT NULL,
    end_time      DATETIME(3) NOT NULL,
    CONSTRAINT fk_seckill_voucher_voucher FOREIGN KEY (voucher_id) REFERENCES voucher (id),
    -- the last line of defence against overselling, below the guarded UPDATE
    CONSTRAINT chk_seckill_voucher_stock CHECK (stock >= 0),
    CONSTRAINT chk_seckill_voucher_window CHECK (end_time > begin_time)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;

CREATE TABLE voucher_order (
    id         BIGINT      NOT NULL PRIMARY KEY COMMENT 'time-ordered id from the app, not auto-increment',
    user_id    BIGINT      NOT NULL,
    voucher_id BIGINT      NOT NULL,
    status     VARCHAR(16) NOT NULL,
    created_at DATETIME(3) NOT NULL,
    -- one order per shopper and voucher, whatever the application layers above let through
    CONSTRAINT uk_voucher_order_user_voucher UNIQUE (user_id, voucher_id),
    KEY idx_voucher_order_voucher (voucher_id)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
