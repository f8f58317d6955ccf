#!/usr/bin/env bash
# A real Nominatim 5.3.3 on 127.0.0.1 for hubgeo's integration tier, on Debian bookworm, as root.
#
#   nominatim.sh start    install what is missing, import the extract if it changed, serve (idempotent)
#   nominatim.sh stop     stop the web server and PostgreSQL
#   nominatim.sh status   what is installed, imported and running
#   nominatim.sh clean    stop, then delete all state (the next start sets up from scratch)
#   nominatim.sh env      the variables the integration tests read (URL, manifest)
#
# What it sets up:
#   - Debian packages: postgresql-15, postgresql-15-postgis-3, osm2pgsql, and what PyICU needs to
#     compile (libicu-dev, pkg-config, g++, python3-dev) and python3-venv, curl.
#   - $STATE/venv: a virtual environment with PyPI nominatim-db and nominatim-api 5.3.3 and their
#     web server (falcon + uvicorn).
#   - $STATE/pgdata: a PostgreSQL cluster of its own, run as user postgres, reachable only through
#     a Unix socket in $STATE/pgsocket (no TCP at all); fsync off, as it holds test data only.
#   - $STATE/project: the Nominatim project directory, imported from the extract that
#     make_extract.py writes; re-imported whenever that extract (or the Nominatim version) changes.
#   - `nominatim serve` on 127.0.0.1:$PORT only, started detached.
#
# Settings (environment):
#   HUBGEO_IT_STATE   state directory (default /var/cache/hubgeo-nominatim). Outside the clone so
#                     that it survives clean clones; not under /root, which user postgres cannot enter.
#   HUBGEO_IT_PORT    web server port on 127.0.0.1 (default 28088)
#   HUBGEO_IT_READY_TIMEOUT  seconds to wait for the web server to answer (default 60)
#
# Any failure stops with "nominatim.sh: error: ..." and the reason on stderr, and exit status 1.

set -Eeuo pipefail

NOMINATIM_VERSION=5.3.3
# The web server of `nominatim serve` and the PyPI packages, pinned.
PIP_REQUIREMENTS="nominatim-db==$NOMINATIM_VERSION nominatim-api==$NOMINATIM_VERSION falcon==4.4.0 uvicorn==0.54.0"
DEBS="postgresql-15 postgresql-15-postgis-3 osm2pgsql python3-venv python3-dev libicu-dev pkg-config g++ curl"

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
STATE=${HUBGEO_IT_STATE:-/var/cache/hubgeo-nominatim}
PORT=${HUBGEO_IT_PORT:-28088}
READY_TIMEOUT=${HUBGEO_IT_READY_TIMEOUT:-60}
HOST=127.0.0.1
URL="http://$HOST:$PORT"

VENV=$STATE/venv
PROJECT=$STATE/project
EXTRACT=$STATE/extract
PGDATA=$STATE/pgdata
PGSOCKET=$STATE/pgsocket
LOGS=$STATE/logs
PGBIN=/usr/lib/postgresql/15/bin
PGPORT=5432            # only names the socket file: the cluster listens on no TCP port
DATABASE=nominatim
SERVER_PID=$STATE/serve.pid

log() { printf 'nominatim.sh: [%4ss] %s\n' "$SECONDS" "$*" >&2; }
die() { printf 'nominatim.sh: error: %s\n' "$*" >&2; exit 1; }
trap 'status=$?; printf "nominatim.sh: error: \"%s\" failed (exit %s) at line %s\n" "$BASH_COMMAND" "$status" "$LINENO" >&2; exit 1' ERR

# Shows the last lines of a log file on stderr (for failures).
tail_log() { [ -f "$1" ] && { printf -- '--- last lines of %s ---\n' "$1" >&2; tail -n "${2:-30}" "$1" >&2; } || true; }

require_root() {
    [ "$(id -u)" = 0 ] || die "run as root (it installs Debian packages and runs PostgreSQL as user postgres): sudo $0 $*"
}

# Serializes start/stop/clean between concurrent callers (two clones sharing $STATE).
lock() {
    mkdir -p "$STATE"
    exec 9>"$STATE/.lock"
    flock -w 1800 9 || die "another nominatim.sh holds $STATE/.lock"
}

# --- Debian packages ------------------------------------------------------------------------

install_debs() {
    local missing="" p
    for p in $DEBS; do
        dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed' || missing="$missing $p"
    done
    [ -z "$missing" ] && return 0
    log "installing Debian packages:$missing"
    apt-get update -qq || die "apt-get update failed"
    # The package scripts must not start PostgreSQL's default cluster: this tier runs its own.
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing >"$LOGS/apt.log" 2>&1 \
        || { tail_log "$LOGS/apt.log"; die "apt-get install$missing failed"; }
    [ -x "$PGBIN/initdb" ] || die "$PGBIN/initdb is missing after installing postgresql-15"
    command -v osm2pgsql >/dev/null || die "osm2pgsql is missing after installing it"
}

# --- Python virtual environment -------------------------------------------------------------

install_venv() {
    if [ -x "$VENV/bin/nominatim" ] && [ "$(cat "$VENV/.requirements" 2>/dev/null)" = "$PIP_REQUIREMENTS" ]; then
        return 0
    fi
    log "creating $VENV with $PIP_REQUIREMENTS (PyICU compiles from source: about 2 minutes)"
    rm -rf "$VENV"
    # Debian's Python (python3-venv, python3-dev): not whatever python3 comes first on PATH.
    /usr/bin/python3 -m venv "$VENV" || die "python3 -m venv failed (is python3-venv installed?)"
    "$VENV/bin/pip" install -q --disable-pip-version-check $PIP_REQUIREMENTS >"$LOGS/pip.log" 2>&1 \
        || { tail_log "$LOGS/pip.log"; die "pip install $PIP_REQUIREMENTS failed"; }
    local version
    version=$("$VENV/bin/nominatim" --version 2>/dev/null | head -n 1) || die "nominatim does not run from $VENV"
    case "$version" in *"$NOMINATIM_VERSION"*) ;; *) die "expected Nominatim $NOMINATIM_VERSION in $VENV, got: $version";; esac
    echo "$PIP_REQUIREMENTS" >"$VENV/.requirements"
}

# --- PostgreSQL -----------------------------------------------------------------------------

as_postgres() { runuser -u postgres -- "$@"; }

psql_admin() { PGOPTIONS="-c client_min_messages=warning" as_postgres "$PGBIN/psql" -h "$PGSOCKET" -p "$PGPORT" -d postgres -X -q -v ON_ERROR_STOP=1 -At "$@"; }

pg_running() { [ -f "$PGDATA/PG_VERSION" ] && as_postgres "$PGBIN/pg_ctl" -D "$PGDATA" status >/dev/null 2>&1; }

init_cluster() {
    [ -f "$PGDATA/PG_VERSION" ] && return 0
    log "creating a PostgreSQL cluster in $PGDATA"
    rm -rf "$PGDATA"
    mkdir -p "$PGDATA" "$PGSOCKET"
    chown postgres:postgres "$PGDATA" "$PGSOCKET"
    chmod 700 "$PGDATA" "$PGSOCKET"
    as_postgres "$PGBIN/initdb" -D "$PGDATA" --auth=trust --encoding=UTF8 --locale=C.UTF-8 >"$LOGS/initdb.log" 2>&1 \
        || { tail_log "$LOGS/initdb.log"; die "initdb failed"; }
    cat >>"$PGDATA/postgresql.conf" <<EOF

# hubgeo integration tier: a Unix socket only, and speed over durability (test data).
listen_addresses = ''
unix_socket_directories = '$PGSOCKET'
port = $PGPORT
fsync = off
synchronous_commit = off
full_page_writes = off
shared_buffers = 256MB
maintenance_work_mem = 256MB
work_mem = 32MB
max_wal_size = 2GB
EOF
}

start_postgres() {
    # The state directory must be enterable by user postgres.
    chmod 755 "$STATE"
    mkdir -p "$PGSOCKET" && chown postgres:postgres "$PGSOCKET" && chmod 700 "$PGSOCKET"
    if ! pg_running; then
        log "starting PostgreSQL (socket $PGSOCKET)"
        touch "$LOGS/postgresql.log" && chown postgres "$LOGS/postgresql.log"
        # 9>&-: the server must not inherit (and so hold) the lock.
        as_postgres "$PGBIN/pg_ctl" -D "$PGDATA" -l "$LOGS/postgresql.log" -w -t 60 start </dev/null >/dev/null 9>&- \
            || { tail_log "$LOGS/postgresql.log"; die "PostgreSQL did not start"; }
    fi
    # Importing as root needs a superuser role root; Nominatim grants read access to www-data.
    psql_admin -c "DO \$\$BEGIN
        IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'root') THEN CREATE ROLE root SUPERUSER LOGIN; END IF;
        IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'www-data') THEN CREATE ROLE \"www-data\" LOGIN; END IF;
        END\$\$;" || die "cannot create the PostgreSQL roles root and www-data"
}

stop_postgres() {
    if pg_running; then
        log "stopping PostgreSQL"
        as_postgres "$PGBIN/pg_ctl" -D "$PGDATA" -m fast -w -t 60 stop >/dev/null || die "PostgreSQL did not stop"
    fi
}

# --- Import ---------------------------------------------------------------------------------

# What an import is made of: the Nominatim version and the extract's bytes.
import_stamp() { echo "nominatim $NOMINATIM_VERSION extract sha256 $(sha256sum "$EXTRACT/extract.osm" | cut -d' ' -f1)"; }

database_exists() { [ "$(psql_admin -c "SELECT 1 FROM pg_database WHERE datname = '$DATABASE'")" = 1 ]; }

import_extract() {
    mkdir -p "$EXTRACT"
    /usr/bin/python3 "$HERE/make_extract.py" "$EXTRACT" || die "make_extract.py failed"
    local stamp
    stamp=$(import_stamp)
    if [ "$(cat "$PROJECT/.import-stamp" 2>/dev/null)" = "$stamp" ] && database_exists; then
        # Same extract: the manifest written with it may still have changed (expectations only).
        cp "$EXTRACT/places.json" "$PROJECT/places.json"
        return 0
    fi
    log "importing $EXTRACT/extract.osm into Nominatim (about 20 s)"
    stop_server
    psql_admin -c "DROP DATABASE IF EXISTS $DATABASE" || die "cannot drop the old database"
    rm -rf "$PROJECT"
    mkdir -p "$PROJECT"
    cat >"$PROJECT/.env" <<EOF
NOMINATIM_DATABASE_DSN="pgsql:dbname=$DATABASE;host=$PGSOCKET;port=$PGPORT"
EOF
    (cd "$PROJECT" && "$VENV/bin/nominatim" import --osm-file "$EXTRACT/extract.osm" --offline --no-updates --threads 2) \
        >"$LOGS/import.log" 2>&1 || { tail_log "$LOGS/import.log" 40; die "nominatim import failed"; }
    cp "$EXTRACT/places.json" "$PROJECT/places.json"
    echo "$stamp" >"$PROJECT/.import-stamp"
}

# --- Web server -----------------------------------------------------------------------------

# True when our Nominatim answers /status with OK.
server_ready() {
    local body
    body=$(curl -s --max-time 2 "$URL/status?format=json" 2>/dev/null) || return 1
    case "$body" in *'"message":"OK"'*"\"software_version\":\"$NOMINATIM_VERSION\""*) return 0;; *) return 1;; esac
}

server_pid() {
    local pid
    pid=$(cat "$SERVER_PID" 2>/dev/null) || return 1
    [ -n "$pid" ] && [ -d "/proc/$pid" ] && grep -q nominatim "/proc/$pid/cmdline" 2>/dev/null && echo "$pid"
}

start_server() {
    if server_pid >/dev/null && server_ready; then
        return 0
    fi
    stop_server
    if curl -s --max-time 2 -o /dev/null "$URL/" 2>/dev/null; then
        die "something else already answers on $HOST:$PORT; choose another port with HUBGEO_IT_PORT"
    fi
    log "starting nominatim serve on $HOST:$PORT"
    : >"$LOGS/serve.log"
    # Fully detached (its own session, no inherited output pipes nor the lock), so that make does
    # not wait for it.
    setsid -f bash -c 'echo $$ >"$1"; cd "$2"; exec "$3" serve --project-dir "$2" --server "$4"' \
        serve "$SERVER_PID" "$PROJECT" "$VENV/bin/nominatim" "$HOST:$PORT" \
        </dev/null >>"$LOGS/serve.log" 2>&1 9>&-
    local waited=0
    until server_ready; do
        if [ "$waited" -ge $((READY_TIMEOUT * 10)) ]; then
            tail_log "$LOGS/serve.log"
            die "Nominatim did not answer $URL/status within $READY_TIMEOUT s"
        fi
        if [ "$waited" -ge 10 ] && ! server_pid >/dev/null; then
            tail_log "$LOGS/serve.log"
            die "nominatim serve exited; see $LOGS/serve.log"
        fi
        sleep 0.1
        waited=$((waited + 1))
    done
    log "Nominatim $NOMINATIM_VERSION answers on $URL (log: $LOGS/serve.log)"
}

stop_server() {
    local pid
    pid=$(server_pid) || { rm -f "$SERVER_PID"; return 0; }
    log "stopping nominatim serve (pid $pid)"
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 50); do [ -d "/proc/$pid" ] || break; sleep 0.1; done
    [ -d "/proc/$pid" ] && kill -KILL "$pid" 2>/dev/null || true
    rm -f "$SERVER_PID"
}

# --- Commands -------------------------------------------------------------------------------

cmd_start() {
    require_root start
    lock
    mkdir -p "$LOGS"
    local t0=$SECONDS
    install_debs
    install_venv
    init_cluster
    start_postgres
    import_extract
    start_server
    log "ready in $((SECONDS - t0)) s"
}

cmd_stop() {
    require_root stop
    [ -d "$STATE" ] || { log "nothing to stop ($STATE does not exist)"; return 0; }
    lock
    stop_server
    stop_postgres
}

cmd_status() {
    echo "state:      $STATE"
    echo "venv:       $( [ -x "$VENV/bin/nominatim" ] && "$VENV/bin/nominatim" --version 2>/dev/null | head -n 1 || echo "not installed")"
    echo "import:     $(cat "$PROJECT/.import-stamp" 2>/dev/null || echo "none")"
    echo "postgresql: $(pg_running && echo running || echo stopped)"
    echo "server:     $(server_ready && echo "answering on $URL" || echo "not answering on $URL")"
}

cmd_clean() {
    require_root clean
    cmd_stop
    log "removing $STATE"
    rm -rf "$STATE"
}

cmd_env() {
    echo "HUBGEO_IT_NOMINATIM_URL=$URL"
    echo "HUBGEO_IT_MANIFEST=$PROJECT/places.json"
}

case "${1:-}" in
    start) cmd_start ;;
    stop) cmd_stop ;;
    status) cmd_status ;;
    clean) cmd_clean ;;
    env) cmd_env ;;
    *) echo "usage: $0 start|stop|status|clean|env" >&2; exit 64 ;;
esac
