#!/usr/bin/env bash
# The PostgreSQL store beside the file journal, run by hand, in one run:
#   Integrations/Scripts/postgres-bench.sh throughput [EVENTS] [PRODUCERS]
#       PRODUCERS relay processes (4 by default) each append EVENTS/PRODUCERS click events from stdin and
#       deliver to a local sink (a Python server answering Segmentify's SUCCESS): first `recokit relay`,
#       each over a journal of its own; then `recokit-postgres relay`, all over one queue; then the same
#       with a transaction held open on another connection for the whole run (BEGIN; pg_current_xact_id(),
#       left idle). Prints events/s from the first line read to the last event at the sink, and for
#       PostgreSQL the WAL and table bytes per event.
#   Integrations/Scripts/postgres-bench.sh size [SECONDS] [RATE] [PRODUCERS]
#       PRODUCERS `recokit-postgres relay` processes append RATE events/s in all (5,000 by default) for
#       SECONDS (600 by default) with a transaction held open the whole time; prints the store's size
#       (tables, indexes, TOAST) every minute and the events/s delivered.
# Uses RECOKIT_POSTGRES_URL when set (else starts a server of its own, and stops it); the release
# binaries recokit-postgres (in .build-companions, or RECOKIT_POSTGRES_BIN) and recokit (in .build, or
# RECOKIT_BIN).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
mode=${1:-throughput}
shift || true
postgres_bin=${RECOKIT_POSTGRES_BIN:-$root/.build-companions/release/recokit-postgres}
journal_bin=${RECOKIT_BIN:-$root/.build/release/recokit}
[[ -x $postgres_bin ]] || { echo "build it first: swift build -c release --product recokit-postgres --package-path Integrations --scratch-path .build-companions" >&2; exit 1; }
work=$(mktemp -d /tmp/recokit-pg-bench.XXXXXX)
own_server=""
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    [[ -n $own_server ]] && "$here/postgres-server.sh" stop "$own_server"
    rm -rf "$work"
}
trap cleanup EXIT
if [[ -z ${RECOKIT_POSTGRES_URL:-} ]]; then
    eval "$("$here/postgres-server.sh" start)"
    own_server=$RECOKIT_POSTGRES_DIR
fi
url=$RECOKIT_POSTGRES_URL
sql() { psql -q "$url" -tAc "$1" 2>/dev/null; }

# The sink: counts distinct event ids (every "eventId" string of a body); GET / says how many.
cat > "$work/sink.py" <<'PY'
import re, threading
from http.server import ThreadingHTTPServer, BaseHTTPRequestHandler
seen = set(); lock = threading.Lock()
event_id = re.compile(rb'"eventId"\s*:\s*"([^"]*)"')
class Sink(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    def log_message(self, *args): pass
    def do_GET(self):
        with lock: body = str(len(seen)).encode()
        self.send_response(200); self.send_header("Content-Length", str(len(body))); self.end_headers(); self.wfile.write(body)
    def do_POST(self):
        data = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        ids = event_id.findall(data)
        with lock: seen.update(ids)
        body = b'{"statusCode":"SUCCESS"}'
        self.send_response(200); self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body))); self.end_headers(); self.wfile.write(body)
server = ThreadingHTTPServer(("127.0.0.1", 0), Sink)
print(server.server_address[1], flush=True)
server.serve_forever()
PY

# start_sink: a fresh sink; sets $sink.
start_sink() {
    rm -f "$work/sink.port"
    python3 "$work/sink.py" > "$work/sink.port" &
    sink_pid=$!
    pids+=($sink_pid)
    while [[ ! -s $work/sink.port ]]; do sleep 0.1; done
    sink=http://127.0.0.1:$(cat "$work/sink.port")
}
stop_sink() { kill "$sink_pid" 2>/dev/null || true; wait "$sink_pid" 2>/dev/null || true; }

# hold_transaction: a transaction with an id, open and idle on its own connection until the run ends.
hold_transaction() {
    mkfifo "$work/hold.$1"
    psql -q "$url" < "$work/hold.$1" > /dev/null &
    pids+=($!)
    exec 9> "$work/hold.$1"
    echo "BEGIN; SELECT pg_current_xact_id();" >&9
    sleep 0.5
}
release_transaction() { echo "ROLLBACK;" >&9; exec 9>&-; }

# wait_for_sink TOTAL: until the sink has TOTAL events; fails if it stalls for a minute.
wait_for_sink() {
    local total=$1 last=-1 stalled=0 delivered
    while :; do
        delivered=$(curl -s "$sink/")
        [[ $delivered -ge $total ]] && return 0
        if [[ $delivered == "$last" ]]; then stalled=$((stalled + 1)); else stalled=0 last=$delivered; fi
        (( stalled < 300 )) || { echo "postgres-bench.sh: delivery stalled at $delivered of $total events" >&2; return 1; }
        sleep 0.2
    done
}

store_bytes() {
    sql "SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
         WHERE n.nspname = '$1' AND c.relkind = 'r'"
}

lines_file() { # PRODUCER COUNT: that producer's click lines
    python3 -c "
import sys
for i in range($2):
    sys.stdout.write('{\"type\":\"click\",\"instanceId\":\"rec_1\",\"productId\":\"P-$1-%d\",\"userId\":\"u$1\",\"sessionId\":\"s1\"}\n' % i)
"
}

throughput() {
    local events=${1:-200000} producers=${2:-4}
    local per=$((events / producers)) total
    total=$((per * producers))
    for p in $(seq 1 "$producers"); do lines_file "$p" "$per" > "$work/lines.$p"; done
    # run_case LABEL KIND: KIND journal | postgres | postgres-held
    run_case() {
        local label=$1 kind=$2 schema="bench_$$_$3" start end wal_start="" wal_bytes=0 table_bytes=0 relays=()
        start_sink
        if [[ $kind != journal ]]; then
            "$postgres_bin" setup --postgres "$url" --schema "$schema" 2>/dev/null
            [[ $kind == postgres-held ]] && hold_transaction "$3"
            wal_start=$(sql "SELECT pg_current_wal_lsn()")
        fi
        start=$(date +%s.%N)
        for p in $(seq 1 "$producers"); do
            if [[ $kind == journal ]]; then
                "$journal_bin" relay --journal "$work/journal.$p" --vendor segmentify --endpoint "$sink" --api-key k \
                    --deadline 600 < "$work/lines.$p" > /dev/null 2> "$work/relay.$p.log" &
            else
                "$postgres_bin" relay --postgres "$url" --schema "$schema" --vendor segmentify --endpoint "$sink" --api-key k \
                    --deadline 600 < "$work/lines.$p" > /dev/null 2> "$work/relay.$p.log" &
            fi
            relays+=($!)
            pids+=($!)
        done
        wait_for_sink "$total"
        end=$(date +%s.%N)
        if [[ $kind != journal ]]; then
            wal_bytes=$(sql "SELECT pg_current_wal_lsn() - '$wal_start'::pg_lsn")
            table_bytes=$(store_bytes "$schema")
            [[ $kind == postgres-held ]] && release_transaction
        fi
        for pid in "${relays[@]}"; do wait "$pid" || true; done
        stop_sink
        python3 -c "
t = $end - $start
extra = '' if '$kind' == 'journal' else f'; WAL {$wal_bytes / $total:.0f} bytes/event, tables {$table_bytes / $total:.0f} bytes/event'
print(f'{\"$label\":<44} {$total} events, $producers producers, {t:6.2f} s: {$total / t:9,.0f} events/s delivered{extra}')"
        if [[ $kind == journal ]]; then rm -rf "$work"/journal.*; else sql "DROP SCHEMA $schema CASCADE" > /dev/null; fi
    }
    if [[ -x $journal_bin ]]; then
        run_case "file journal (one per process)" journal 0
    else
        echo "(no $journal_bin: swift build -c release --product recokit, for the file journal's line)" >&2
    fi
    run_case "postgres store (one queue)" postgres 1
    run_case "postgres store, a transaction held open" postgres-held 2
}

size() {
    local seconds=${1:-600} rate=${2:-5000} producers=${3:-4} schema="bench_size_$$"
    local per=$((rate / producers)) minute=0 first="" bytes start now delivered relays=()
    start_sink
    "$postgres_bin" setup --postgres "$url" --schema "$schema" 2>/dev/null
    hold_transaction size
    for p in $(seq 1 "$producers"); do
        # Paced: per events a second, in tenths of a second.
        python3 -c "
import sys, time
start = time.monotonic(); i = 0
while time.monotonic() - start < $seconds:
    due = int((time.monotonic() - start) * $per)
    while i < due:
        sys.stdout.write('{\"type\":\"click\",\"instanceId\":\"rec_1\",\"productId\":\"P-$p-%d\",\"userId\":\"u$p\",\"sessionId\":\"s1\"}\n' % i); i += 1
    sys.stdout.flush(); time.sleep(0.1)
" | "$postgres_bin" relay --postgres "$url" --schema "$schema" --vendor segmentify --endpoint "$sink" --api-key k \
            --deadline 600 > /dev/null 2> "$work/relay.$p.log" &
        relays+=($!)
        pids+=($!)
    done
    start=$(date +%s)
    echo "size run: $rate events/s by $producers producers for $seconds s, a transaction held open the whole time"
    while (( $(date +%s) - start < seconds )); do
        sleep 60
        minute=$((minute + 1))
        bytes=$(store_bytes "$schema")
        delivered=$(curl -s "$sink/")
        [[ -z $first ]] && first=$bytes
        now=$(date +%s)
        printf '  minute %2d: store %6.1f MB, %9d events delivered (%6.0f events/s), held transaction open: %s\n' "$minute" \
            "$(python3 -c "print($bytes / 1e6)")" "$delivered" "$(python3 -c "print($delivered / max(1, $now - $start))")" \
            "$(sql "SELECT count(*) FROM pg_stat_activity WHERE state = 'idle in transaction' AND backend_xid IS NOT NULL")"
    done
    bytes=$(store_bytes "$schema")
    python3 -c "print(f'size run: store after the first minute {$first / 1e6:.1f} MB, at the end {$bytes / 1e6:.1f} MB ({$bytes / max(1, $first):.2f}x)')"
    release_transaction
    for pid in "${relays[@]}"; do wait "$pid" || true; done
    sql "DROP SCHEMA $schema CASCADE" > /dev/null
}

case $mode in
    throughput) throughput "$@" ;;
    size) size "$@" ;;
    *) echo "usage: postgres-bench.sh throughput [EVENTS] [PRODUCERS] | size [SECONDS] [RATE] [PRODUCERS]" >&2; exit 2 ;;
esac
