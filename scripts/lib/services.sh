# shellcheck shell=bash
#
# Shared helpers that make sure the backing services of the tests and the measuring scripts (Redis,
# MariaDB/MySQL on this machine) are up, and that install what is missing. Sourced by scripts/test-services,
# .ci/run, scripts/cluster (svc_apt_install) and the measuring scripts; not meant to be executed on its own.
#
# Every function checks its own errors and returns non-zero on failure, so the
# helpers behave the same whether or not the caller runs with `set -e` (and even
# when they are called inside an `if`, where bash ignores `set -e`).
#
# Settings (environment, with defaults):
#   SECKILL_REDIS_HOST (127.0.0.1)   SECKILL_REDIS_PORT (6379)
#   SECKILL_DB_HOST    (127.0.0.1)   SECKILL_DB_PORT    (3306)
#   SECKILL_DB_USER    (root)        SECKILL_DB_PASSWORD (empty)
#   SVC_TAG            prefix of the messages, e.g. "[cluster]"

: "${SECKILL_REDIS_HOST:=127.0.0.1}"
: "${SECKILL_REDIS_PORT:=6379}"
: "${SECKILL_DB_HOST:=127.0.0.1}"
: "${SECKILL_DB_PORT:=3306}"
: "${SECKILL_DB_USER:=root}"
: "${SECKILL_DB_PASSWORD:=}"
: "${SVC_TAG:=[services]}"

svc_log() { printf '%s %s\n' "$SVC_TAG" "$*"; }
svc_err() { printf '%s ERROR: %s\n' "$SVC_TAG" "$*" >&2; }

svc_is_local_host() {
    case "$1" in 127.0.0.1 | localhost | ::1) return 0 ;; *) return 1 ;; esac
}

# svc_wait SECONDS WHAT COMMAND... : run COMMAND every second until it succeeds.
svc_wait() {
    local timeout=$1 what=$2 i
    shift 2
    for ((i = 0; i < timeout; i++)); do
        if "$@" >/dev/null 2>&1; then
            return 0
        fi
        sleep 1
    done
    svc_err "$what did not come up within ${timeout}s"
    return 1
}

# svc_apt_install PACKAGE... : apt-get install, running `apt-get update` once per process.
SVC_APT_UPDATED=0
svc_apt_install() {
    local out
    if ! command -v apt-get >/dev/null 2>&1; then
        svc_err "apt-get not found: install $* yourself"
        return 1
    fi
    if [ "$(id -u)" -ne 0 ]; then
        svc_err "installing $* needs root (run as root, or install it yourself)"
        return 1
    fi
    out=$(mktemp) || return 1
    if [ "$SVC_APT_UPDATED" = 0 ]; then
        svc_log "apt-get update"
        if ! DEBIAN_FRONTEND=noninteractive apt-get update -q >"$out" 2>&1; then
            tail -n 20 "$out" >&2
            rm -f "$out"
            svc_err "apt-get update failed"
            return 1
        fi
        SVC_APT_UPDATED=1
    fi
    svc_log "apt-get install $*"
    if ! DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "$@" >"$out" 2>&1; then
        tail -n 20 "$out" >&2
        rm -f "$out"
        svc_err "apt-get install $* failed"
        return 1
    fi
    rm -f "$out"
}

# svc_require_cmd COMMAND PACKAGE : install PACKAGE unless COMMAND is on the PATH.
svc_require_cmd() {
    command -v "$1" >/dev/null 2>&1 && return 0
    svc_apt_install "$2" || return 1
    command -v "$1" >/dev/null 2>&1 || { svc_err "$2 installed but '$1' still not found"; return 1; }
}

# --------------------------------------------------------------------------- Redis

redis_ping() {
    [ "$(redis-cli -h "$SECKILL_REDIS_HOST" -p "$SECKILL_REDIS_PORT" ping 2>/dev/null)" = PONG ]
}

# ensure_redis [MARKER_FILE [LOG_FILE [DATA_DIR]]]
#   Starts a local redis-server if none answers. When it starts one and MARKER_FILE
#   is given, it writes the port there so that the caller knows it owns the server.
#   With DATA_DIR the server keeps its data there in an append-only file (AOF), fsynced
#   as SECKILL_REDIS_FSYNC says (always | everysec), and reloads it when started again;
#   without, it keeps nothing (a cache, as the tests' Redis).
ensure_redis() {
    local marker=${1:-} logfile=${2:-} datadir=${3:-}
    if command -v redis-cli >/dev/null 2>&1 && redis_ping; then
        svc_log "redis: already up on $SECKILL_REDIS_HOST:$SECKILL_REDIS_PORT"
        return 0
    fi
    if ! svc_is_local_host "$SECKILL_REDIS_HOST"; then
        svc_err "redis at $SECKILL_REDIS_HOST:$SECKILL_REDIS_PORT does not answer (only a local one is started here)"
        return 1
    fi
    if ! command -v redis-server >/dev/null 2>&1 || ! command -v redis-cli >/dev/null 2>&1; then
        svc_apt_install redis-server || return 1
        # without policy-rc.d the package may have started a server itself
        if redis_ping; then
            svc_log "redis: up after install on $SECKILL_REDIS_HOST:$SECKILL_REDIS_PORT"
            return 0
        fi
    fi
    svc_log "redis: starting redis-server on 127.0.0.1:$SECKILL_REDIS_PORT"
    local args=(--daemonize yes --bind 127.0.0.1 --port "$SECKILL_REDIS_PORT" --save "")
    if [ -n "$datadir" ]; then
        mkdir -p "$datadir" || return 1
        args+=(--dir "$datadir" --pidfile "$datadir/redis.pid" --appendonly yes
            --appendfsync "${SECKILL_REDIS_FSYNC:-always}")
    else
        args+=(--appendonly no)
    fi
    [ -n "$logfile" ] && args+=(--logfile "$logfile")
    redis-server "${args[@]}" || { svc_err "redis-server failed to start"; return 1; }
    svc_wait 30 "redis" redis_ping || return 1
    if [ -n "$marker" ]; then
        echo "$SECKILL_REDIS_PORT" >"$marker" || return 1
    fi
    svc_log "redis: started"
}

# redis_durability : prints the server's "appendonly appendfsync" (e.g. "yes always")
redis_durability() {
    local aof fsync
    aof=$(redis-cli -h "$SECKILL_REDIS_HOST" -p "$SECKILL_REDIS_PORT" config get appendonly 2>/dev/null | sed -n 2p)
    fsync=$(redis-cli -h "$SECKILL_REDIS_HOST" -p "$SECKILL_REDIS_PORT" config get appendfsync 2>/dev/null | sed -n 2p)
    echo "${aof:-unknown} ${fsync:-unknown}"
}

# ----------------------------------------------------------------------- MariaDB

# db_client: prints the command-line client (mariadb, else mysql).
db_client() {
    if command -v mariadb >/dev/null 2>&1; then echo mariadb; else echo mysql; fi
}

db_admin() {
    if command -v mariadb-admin >/dev/null 2>&1; then echo mariadb-admin; else echo mysqladmin; fi
}

# db_ping: is a server listening at SECKILL_DB_HOST:PORT? (true even if the login is refused)
db_ping() {
    command -v "$(db_admin)" >/dev/null 2>&1 || return 1
    "$(db_admin)" --protocol=TCP --connect-timeout=2 -h"$SECKILL_DB_HOST" -P"$SECKILL_DB_PORT" \
        -u"$SECKILL_DB_USER" ping >/dev/null 2>&1
}

# db_sql SQL : run SQL over TCP with the configured account; prints rows tab-separated.
db_sql() {
    MYSQL_PWD="$SECKILL_DB_PASSWORD" "$(db_client)" --protocol=TCP --connect-timeout=5 \
        -h"$SECKILL_DB_HOST" -P"$SECKILL_DB_PORT" -u"$SECKILL_DB_USER" -N -B -e "$1"
}

# db_socket_sql SQL : run SQL as root over the local unix socket (unix_socket auth as OS root).
db_socket_sql() {
    "$(db_client)" -uroot -N -B -e "$1"
}

db_server_binary() {
    local b
    for b in /usr/sbin/mariadbd /usr/sbin/mysqld; do
        [ -x "$b" ] && { echo "$b"; return 0; }
    done
    return 1
}

db_is_mariadb() {
    local v
    v=$(db_sql 'SELECT VERSION()' 2>/dev/null) || return 1
    [[ $v == *MariaDB* ]]
}

# ensure_db [MARKER_FILE]
#   Starts a local MariaDB if none answers, and makes sure the configured account can
#   log in over TCP (a fresh Debian MariaDB only lets root in through the unix socket).
#   When it starts the server and MARKER_FILE is given, it writes the server's pid there.
ensure_db() {
    local marker=${1:-} bin started=0
    if db_ping; then
        svc_log "db: already up on $SECKILL_DB_HOST:$SECKILL_DB_PORT"
    else
        if ! svc_is_local_host "$SECKILL_DB_HOST"; then
            svc_err "database at $SECKILL_DB_HOST:$SECKILL_DB_PORT does not answer (only a local one is started here)"
            return 1
        fi
        if ! db_server_binary >/dev/null || ! command -v "$(db_admin)" >/dev/null 2>&1; then
            svc_apt_install mariadb-server || return 1
        fi
        if db_ping; then
            svc_log "db: up after install on $SECKILL_DB_HOST:$SECKILL_DB_PORT"
        else
            bin=$(db_server_binary) || { svc_err "no mariadbd/mysqld binary found"; return 1; }
            svc_log "db: starting $bin"
            mkdir -p /run/mysqld && chown mysql:mysql /run/mysqld || return 1
            start-stop-daemon --start --oknodo --background --exec "$bin" -- --user=mysql || {
                svc_err "start-stop-daemon could not start $bin"
                return 1
            }
            if ! svc_wait 60 "db" db_ping; then
                [ -r /var/log/mysql/error.log ] && tail -n 20 /var/log/mysql/error.log >&2
                svc_err "run '$bin --user=mysql' in the foreground to see why it does not start"
                return 1
            fi
            started=1
            svc_log "db: started"
        fi
    fi

    if ! db_sql 'SELECT 1' >/dev/null 2>&1; then
        if svc_is_local_host "$SECKILL_DB_HOST" && [ "$SECKILL_DB_USER" = root ] &&
            db_socket_sql 'SELECT 1' >/dev/null 2>&1; then
            svc_log "db: allowing root over TCP from 127.0.0.1 (was unix_socket only)"
            local pw=${SECKILL_DB_PASSWORD//\\/\\\\}
            pw=${pw//\'/\'\'}
            db_socket_sql "CREATE USER IF NOT EXISTS 'root'@'127.0.0.1' IDENTIFIED BY '$pw';
                GRANT ALL ON *.* TO 'root'@'127.0.0.1' WITH GRANT OPTION;" || return 1
            # Without skip-name-resolve (Debian's default) the server resolves 127.0.0.1 to
            # 'localhost', so TCP logins match root@localhost, not root@127.0.0.1: let
            # root@localhost also log in with the password (unix_socket keeps working).
            if ! db_sql 'SELECT 1' >/dev/null 2>&1 &&
                [[ $(db_socket_sql 'SELECT VERSION()' 2>/dev/null) == *MariaDB* ]]; then
                svc_log "db: 127.0.0.1 resolves to localhost here: root@localhost may now also log in" \
                    "with the configured password (development machines only)"
                db_socket_sql "ALTER USER 'root'@'localhost'
                    IDENTIFIED VIA unix_socket OR mysql_native_password USING PASSWORD('$pw');" || return 1
            fi
        fi
        if ! db_sql 'SELECT 1' >/dev/null; then
            svc_err "cannot log in to $SECKILL_DB_HOST:$SECKILL_DB_PORT as '$SECKILL_DB_USER' (check SECKILL_DB_USER / SECKILL_DB_PASSWORD)"
            return 1
        fi
    fi

    # `./mvnw verify` holds several instances' connection pools at once (in-JVM instances, the chaos tests'
    # packaged JVMs): it reached MariaDB's default limit of 151 connections on a machine where nothing else
    # used the server. Raised for the running server only; an account that may not does without (a warning).
    if [ "$(db_sql 'SELECT @@max_connections' 2>/dev/null)" -lt 1000 ] 2>/dev/null; then
        if db_sql 'SET GLOBAL max_connections = 1000' >/dev/null 2>&1; then
            svc_log "db: max_connections raised to 1000 (the integration tests need more than 151; two test JVMs at once about twice what one needs)"
        else
            svc_log "db: WARNING: could not raise max_connections above $(db_sql 'SELECT @@max_connections' 2>/dev/null); ./mvnw verify may meet 'Too many connections'"
        fi
    fi

    if [ "$started" = 1 ] && [ -n "$marker" ]; then
        local pidfile pid=""
        pidfile=$(db_sql 'SELECT @@pid_file' 2>/dev/null) || pidfile=""
        [ -n "$pidfile" ] && [ -r "$pidfile" ] && pid=$(cat "$pidfile")
        echo "${pid:-unknown}" >"$marker" || return 1
    fi
    return 0
}
