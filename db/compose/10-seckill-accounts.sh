#!/bin/bash
# Run once by the MySQL image on an empty data volume (docker-entrypoint-initdb.d). MYSQL_USER
# (seckill_migrate) owns the schema and is what Flyway uses; the instances connect as seckill_app,
# which may change data but not the schema. Passwords come from the environment (.env).
set -euo pipefail
mysql -uroot -p"$MYSQL_ROOT_PASSWORD" <<SQL
CREATE USER IF NOT EXISTS 'seckill_app'@'%' IDENTIFIED BY '${SECKILL_APP_DB_PASSWORD}';
GRANT SELECT, INSERT, UPDATE, DELETE ON \`${MYSQL_DATABASE}\`.* TO 'seckill_app'@'%';
SQL
