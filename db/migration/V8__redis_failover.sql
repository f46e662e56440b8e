-- Runs on MySQL 8 and MariaDB 10.11. Owned by the durability module (dev.seckill.durability).
-- A Redis master that fails over to a replica can take its last writes with it: accepted orders the replica had
-- not received. The epoch marker cannot see it (the replica holds the marker), so MySQL also remembers which
-- masters the platform writes to; a change is a failover, recorded once, and every instance alive then replays
-- the orders it accepted a moment before into the new master and says what it found.

CREATE TABLE redis_topology (
    id         TINYINT       NOT NULL PRIMARY KEY COMMENT 'always 1: one Redis deployment per database',
    masters    VARCHAR(2000) NOT NULL COMMENT 'host:port of every master, sorted, comma-separated',
    generation BIGINT        NOT NULL COMMENT 'one more after every failover: moving it on is how one instance, and only one, records it',
    since      DATETIME(3)   NOT NULL,
    CONSTRAINT chk_redis_topology_single CHECK (id = 1)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;

CREATE TABLE redis_failover (
    generation       BIGINT        NOT NULL PRIMARY KEY COMMENT 'the topology generation the failover started',
    old_masters      VARCHAR(2000) NOT NULL,
    new_masters      VARCHAR(2000) NOT NULL,
    detected_at      DATETIME(3)   NOT NULL,
    detected_by      VARCHAR(128)  NOT NULL COMMENT 'instance id',
    last_voucher_id  BIGINT        NOT NULL COMMENT 'the newest voucher then: it and every older one may have had orders in flight',
    expected_replays VARCHAR(4000) NOT NULL COMMENT 'the watchers alive then (comma-separated): until each has replayed, nobody can know what was lost',
    KEY idx_redis_failover_detected (detected_at)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;

CREATE TABLE redis_failover_replay (
    generation  BIGINT       NOT NULL,
    watcher     VARCHAR(191) NOT NULL COMMENT 'instance id + per-process token',
    voucher_id  BIGINT       NOT NULL COMMENT '0: the watcher finished its replay (a row per voucher carries the counts)',
    present     INT          NOT NULL COMMENT 'journaled orders the new master had',
    reapplied   INT          NOT NULL COMMENT 'journaled orders it lacked, put back',
    lost        INT          NOT NULL COMMENT 'answered 202, not in MySQL, and could not be put back',
    resold      INT          NOT NULL COMMENT 'in MySQL, but their unit was sold again by the new master',
    replayed_at DATETIME(3)  NOT NULL,
    PRIMARY KEY (generation, watcher, voucher_id),
    KEY idx_redis_failover_replay_voucher (voucher_id)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;

-- Which instances watch Redis now: a failover expects a replay from each one seen in the last few seconds.
CREATE TABLE redis_watcher (
    watcher VARCHAR(191) NOT NULL PRIMARY KEY COMMENT 'instance id + per-process token',
    seen_at DATETIME(3)  NOT NULL
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
