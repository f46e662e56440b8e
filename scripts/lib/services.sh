# shellcheck shell=bash
#
# Shared helpers of the scripts, sourced (never executed) by scripts/cluster, scripts/test-services, .ci/run and the
# measuring scripts, before scripts/lib/docker.sh: messages under the script's tag (SVC_TAG, e.g. "[cluster]"), a wait,
# apt-get installs of the tools a script needs. Nothing here starts a server. Every function says why it failed and
# returns non-zero, so it behaves alike with or without `set -e` (which bash ignores inside an `if`).

: "${SVC_TAG:=[services]}"

svc_log() { printf '%s %s\n' "$SVC_TAG" "$*"; }
svc_err() { printf '%s ERROR: %s\n' "$SVC_TAG" "$*" >&2; }

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
