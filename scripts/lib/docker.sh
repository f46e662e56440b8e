# shellcheck shell=bash
#
# docker_ready [compose]: a docker CLI that talks to an engine (Engine 20.10 or later), and with `compose` also a
# Compose (v2's `docker compose`, or docker-compose 1.29). On a Debian machine as root, what is missing is installed
# (docker.io, docker-compose) and the engine started (dockerd: these machines have no systemd); elsewhere one line
# says what to do. Sourced after scripts/lib/services.sh (svc_log, svc_err, svc_wait, svc_apt_install) by
# scripts/cluster, scripts/test-services and the measuring scripts. Sets DOCKER (the docker command to use), COMPOSE (an array, with
# `compose`), exports DOCKER_BUILDKIT=0 and returns non-zero after saying why.

# shellcheck disable=SC2120 # the argument is optional: scripts/test-services needs no compose
docker_ready() {
    local want_compose=0 missing=()
    [ "${1:-}" = compose ] && want_compose=1
    # an engine that answers needs nothing installed, wherever it runs (Docker Desktop has no dockerd on the PATH)
    if ! docker_answers; then
        command -v docker >/dev/null 2>&1 && command -v dockerd >/dev/null 2>&1 || missing+=(docker.io)
    fi
    if [ "$want_compose" = 1 ] && ! command -v docker-compose >/dev/null 2>&1 &&
        ! docker compose version >/dev/null 2>&1; then
        missing+=(docker-compose)
    fi
    if [ "${#missing[@]}" -gt 0 ]; then
        if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
            svc_apt_install "${missing[@]}" || { svc_err "could not install ${missing[*]} (messages above)"; return 1; }
        else
            svc_err "Docker is missing (${missing[*]}): install Docker Engine 20.10 or later$([ "$want_compose" = 1 ] && echo " and Compose") (Debian, as root: apt-get install ${missing[*]})"
            return 1
        fi
    fi
    # The classic builder: a docker CLI newer than the engine (or one without buildx) would ask for BuildKit, which
    # the engines of this kind of machine do without; the Dockerfiles need nothing BuildKit has.
    export DOCKER_BUILDKIT=0 COMPOSE_DOCKER_CLI_BUILD=0
    docker_pick_cli
    local out
    # `docker version`: `docker info --format` prints no reason when the engine does not answer
    if ! out=$(timeout 15 "$DOCKER" version --format '{{.Server.Version}}' 2>&1); then
        if [[ $out == *"permission denied"* ]]; then
            svc_err "the Docker engine refuses this user ($(id -un)): run as root, or join the docker group (usermod -aG docker $(id -un), then log in again)"
            return 1
        fi
        if [ "$(id -u)" = 0 ] && command -v dockerd >/dev/null 2>&1 && ! pgrep -x dockerd >/dev/null; then
            # in a session of its own, so that it outlives the script that started it
            svc_log "docker: starting the engine (dockerd, log /var/log/dockerd.log)"
            setsid dockerd >>/var/log/dockerd.log 2>&1 </dev/null &
            svc_wait 60 "the Docker engine" "$DOCKER" version --format '{{.Server.Version}}' ||
                { svc_err "the Docker engine did not start: see /var/log/dockerd.log"; return 1; }
            docker_pick_cli
        else
            svc_err "the Docker engine does not answer ($(printf '%s\n' "$out" | grep -v '^$' | head -n 1 | sed 's/\?.*/?/')): start it (systemctl start docker, or dockerd as root)"
            return 1
        fi
    fi
    local api
    api=$("$DOCKER" version --format '{{.Server.APIVersion}}' 2>/dev/null) || api=""
    if [ -n "$api" ] && [ "$(printf '%s\n1.41\n' "$api" | sort -V | head -n 1)" != 1.41 ]; then
        svc_err "the Docker engine speaks API $api, older than 1.41 (Docker Engine 20.10): upgrade it"
        return 1
    fi
    # a CLI newer than the engine that does not negotiate the API down by itself is told the engine's own
    if [ -n "$api" ] && [ "$("$DOCKER" version --format '{{.Client.APIVersion}}' 2>/dev/null)" != "$api" ]; then
        export DOCKER_API_VERSION=${DOCKER_API_VERSION:-$api}
    fi
    if [ "$want_compose" = 1 ]; then
        # shellcheck disable=SC2034 # read by the scripts that source this file
        # compose v2 where present, else docker-compose 1.29; both read the same file
        if "$DOCKER" compose version >/dev/null 2>&1; then
            COMPOSE=("$DOCKER" compose)
        else
            COMPOSE=(docker-compose)
        fi
    fi
}

docker_answers() { command -v docker >/dev/null 2>&1 && timeout 15 docker version --format '{{.Server.Version}}' >/dev/null 2>&1; }

# DOCKER: `docker`, or Debian's CLI beside the engine when the `docker` on the PATH is another version (a newer
# client may refuse to talk to an old engine; the one packaged with the engine never does)
docker_pick_cli() {
    DOCKER=docker
    if [ -x /usr/bin/docker ] && [ "$(command -v docker)" != /usr/bin/docker ]; then
        local versions
        versions=$(/usr/bin/docker version --format '{{.Client.Version}} {{.Server.Version}}' 2>/dev/null) || versions=""
        [ -n "$versions" ] && [ "${versions% *}" = "${versions#* }" ] && DOCKER=/usr/bin/docker
    fi
    return 0
}
