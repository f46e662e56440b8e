-- Runs on MySQL 8 and MariaDB 10.11. Snowflake worker numbers are leased from here instead of a Redis
-- counter: a Redis that lost its data handed out a number still in use, two orders got the same id and
-- the second was dropped as "already written". The primary key and a guarded UPDATE decide who holds
-- a number; the database's clock (UTC_TIMESTAMP(6)) decides when a lease has run out.

CREATE TABLE id_worker_lease (
    worker_id    SMALLINT     NOT NULL PRIMARY KEY COMMENT 'the 10 worker bits of an id: 0..1023',
    owner        VARCHAR(191) NULL COMMENT 'instance id + random per-process token; NULL = free',
    expires_at   DATETIME(6)  NULL COMMENT 'UTC, database clock; once past, anyone may take the number',
    issued_until BIGINT       NOT NULL DEFAULT 0
        COMMENT 'epoch ms on the ids'' time line: no holder ever issued an id after it; the next holder starts after it',
    CONSTRAINT chk_id_worker_lease_worker CHECK (worker_id BETWEEN 0 AND 1023)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;

-- Every number exists up front, so taking one is always an UPDATE of an existing row (no INSERT race).
-- Five cross-joined 0..3 digits make 0..1023 (a recursive CTE would hit MySQL's default
-- cte_max_recursion_depth of 1000).
INSERT INTO id_worker_lease (worker_id)
SELECT d0.d + 4 * d1.d + 16 * d2.d + 64 * d3.d + 256 * d4.d
FROM (SELECT 0 AS d UNION ALL SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3) d0
CROSS JOIN (SELECT 0 AS d UNION ALL SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3) d1
CROSS JOIN (SELECT 0 AS d UNION ALL SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3) d2
CROSS JOIN (SELECT 0 AS d UNION ALL SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3) d3
CROSS JOIN (SELECT 0 AS d UNION ALL SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3) d4;
