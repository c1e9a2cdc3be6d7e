#!/usr/bin/env bash
# A private PostgreSQL for the tests: `start` prints `export RECOKIT_POSTGRES_URL=...` (eval it), `stop`
# stops it and removes its folder.
#   postgres-server.sh start [DIR]   installs Debian's postgresql when missing, initdb into DIR (a new
#                                    temporary folder by default), starts on 127.0.0.1 on a free port with
#                                    fsync on, creates the database recokit, prints the export line
#   postgres-server.sh crash [DIR]   stops it with `pg_ctl stop -m immediate` and starts it again
#   postgres-server.sh stop [DIR]    stops the server of DIR (default: the last one started) and removes DIR
# As root (CI), the cluster runs as the user recokit-pg, created when missing: initdb refuses root.
set -euo pipefail

state_file=${RECOKIT_PG_STATE:-/tmp/recokit-postgres-server.dir}
pg_user=recokit-pg

find_bin() {
    local dir
    for dir in /usr/lib/postgresql/*/bin; do
        [[ -x $dir/initdb ]] && bin=$dir
    done
    [[ -n ${bin:-} ]]
}

as_owner() {
    if [[ $(id -u) == 0 ]]; then runuser -u "$pg_user" -- "$@"; else "$@"; fi
}

start() {
    if ! find_bin; then
        echo "postgres-server.sh: installing postgresql (apt-get)" >&2
        DEBIAN_FRONTEND=noninteractive apt-get update -qq >&2
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >&2
        find_bin || { echo "postgres-server.sh: postgresql installed but no initdb under /usr/lib/postgresql" >&2; exit 1; }
    fi
    local dir=${1:-$(mktemp -d /tmp/recokit-pg.XXXXXX)}
    mkdir -p "$dir"
    if [[ $(id -u) == 0 ]]; then
        id "$pg_user" >/dev/null 2>&1 || useradd --system --no-create-home --shell /usr/sbin/nologin "$pg_user"
        chown "$pg_user" "$dir"
    fi
    as_owner "$bin/initdb" -D "$dir/data" -U postgres -A trust -E UTF8 --no-sync >/dev/null
    local port
    port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    # In the cluster's own configuration, so that a restart after a crash (`crash`) finds it.
    printf "listen_addresses = '127.0.0.1'\nport = %s\nunix_socket_directories = '%s'\nfsync = on\nmax_connections = 200\n" \
        "$port" "$dir" >> "$dir/data/postgresql.conf"
    as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 start >/dev/null
    as_owner "$bin/createdb" -h 127.0.0.1 -p "$port" -U postgres recokit
    echo "$dir" > "$state_file"
    echo "$bin" > "$dir/bin"
    echo "$port" > "$dir/port"
    echo "export RECOKIT_POSTGRES_URL=postgres://postgres@127.0.0.1:$port/recokit RECOKIT_POSTGRES_DIR=$dir"
}

stop() {
    local dir=${1:-$(cat "$state_file" 2>/dev/null || true)}
    [[ -n $dir && -d $dir ]] || { echo "postgres-server.sh: no server to stop" >&2; return 0; }
    bin=$(cat "$dir/bin" 2>/dev/null || true)
    [[ -n $bin ]] || find_bin || true
    if [[ -f $dir/data/postmaster.pid ]]; then
        as_owner "$bin/pg_ctl" -D "$dir/data" -w -t 60 -m fast stop >/dev/null || as_owner "$bin/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null || true
    fi
    rm -rf "$dir"
    [[ $(cat "$state_file" 2>/dev/null) == "$dir" ]] && rm -f "$state_file"
    return 0
}

# Crashes the server (`pg_ctl stop -m immediate`: no checkpoint, recovery from WAL at the next start) and starts it again.
crash() {
    local dir=${1:-$(cat "$state_file")}
    bin=$(cat "$dir/bin")
    as_owner "$bin/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null
    as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 start >/dev/null
}

case ${1:-} in
    crash) crash "${2:-}" ;;
    start) start "${2:-}" ;;
    stop) stop "${2:-}" ;;
    *) echo "usage: postgres-server.sh start [DIR] | crash [DIR] | stop [DIR]" >&2; exit 2 ;;
esac
