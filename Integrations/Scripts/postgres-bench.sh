#!/usr/bin/env bash
# Throughput of the PostgreSQL store, run by hand: PRODUCERS `recokit-postgres relay` processes (4 by
# default) each append EVENTS/PRODUCERS click events from stdin and deliver with the others to a local
# sink (a Python server answering Segmentify's SUCCESS); prints events/s from the first line read to the
# last event at the sink, and WAL and table bytes per event.
#   Integrations/Scripts/postgres-bench.sh [EVENTS] [PRODUCERS]
# HOLD=1 holds a transaction with an id open on another connection for the whole run (BEGIN; SELECT
# pg_current_xact_id(), left idle): delivery should be about as fast as without it.
# Uses RECOKIT_POSTGRES_URL when set (else starts a server of its own, and stops it), and the
# recokit-postgres built in .build-companions/release (or RECOKIT_POSTGRES_BIN).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
events=${1:-200000}
producers=${2:-4}
binary=${RECOKIT_POSTGRES_BIN:-$here/../../.build-companions/release/recokit-postgres}
[[ -x $binary ]] || { echo "build it first: (cd Integrations && swift build -c release --product recokit-postgres --scratch-path ../.build-companions)" >&2; exit 1; }
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
schema=bench_$$

cat > "$work/sink.py" <<'PY'
import json, sys, threading
from http.server import ThreadingHTTPServer, BaseHTTPRequestHandler
seen = set(); lock = threading.Lock()
class Sink(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    def log_message(self, *args): pass
    def do_GET(self):
        with lock: body = str(len(seen)).encode()
        self.send_response(200); self.send_header("Content-Length", str(len(body))); self.end_headers(); self.wfile.write(body)
    def do_POST(self):
        data = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        ids = []
        def visit(value):
            if isinstance(value, dict):
                for key, member in value.items():
                    if key == "eventId": ids.append(member)
                    else: visit(member)
            elif isinstance(value, list):
                for member in value: visit(member)
        try: visit(json.loads(data))
        except ValueError: pass
        with lock: seen.update(ids)
        body = b'{"statusCode":"SUCCESS"}'
        self.send_response(200); self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body))); self.end_headers(); self.wfile.write(body)
server = ThreadingHTTPServer(("127.0.0.1", 0), Sink)
print(server.server_address[1], flush=True)
server.serve_forever()
PY
python3 "$work/sink.py" > "$work/sink.port" &
pids+=($!)
while [[ ! -s $work/sink.port ]]; do sleep 0.1; done
sink=http://127.0.0.1:$(cat "$work/sink.port")

"$binary" setup --postgres "$url" --schema "$schema" 2>/dev/null
if [[ ${HOLD:-0} == 1 ]]; then
    mkfifo "$work/hold"
    psql -q "$url" < "$work/hold" > /dev/null &
    pids+=($!)
    exec 9> "$work/hold"
    echo "BEGIN; SELECT pg_current_xact_id();" >&9
    sleep 0.5
    echo "held transaction: $(psql "$url" -tAc "SELECT count(*) FROM pg_stat_activity WHERE state = 'idle in transaction' AND backend_xid IS NOT NULL") open with an xid" >&2
fi
per=$((events / producers))
for p in $(seq 1 "$producers"); do
    python3 -c "
import sys
for i in range($per):
    sys.stdout.write('{\"type\":\"click\",\"instanceId\":\"rec_1\",\"productId\":\"P-$p-%d\",\"userId\":\"u$p\",\"sessionId\":\"s1\"}\n' % i)
" > "$work/lines.$p"
done
total=$((per * producers))
sql() { psql "$url" -tAc "$1"; }
wal_start=$(sql "SELECT pg_current_wal_lsn()")
start=$(date +%s.%N)
for p in $(seq 1 "$producers"); do
    "$binary" relay --postgres "$url" --schema "$schema" --vendor segmentify --endpoint "$sink" --api-key k \
        --deadline 600 < "$work/lines.$p" > /dev/null 2> "$work/relay.$p.log" &
    pids+=($!)
done
last=-1 stalled=0
while :; do
    delivered=$(curl -s "$sink/")
    [[ $delivered -ge $total ]] && break
    # Stuck for a minute (delivery held back): say so rather than wait for ever.
    if [[ $delivered == "$last" ]]; then stalled=$((stalled + 1)); else stalled=0 last=$delivered; fi
    (( stalled < 300 )) || { echo "postgres-bench.sh: delivery stalled at $delivered of $total events" >&2; exit 1; }
    sleep 0.2
done
end=$(date +%s.%N)
wal_bytes=$(sql "SELECT pg_current_wal_lsn() - '$wal_start'::pg_lsn")
table_bytes=$(sql "SELECT sum(pg_total_relation_size(c.oid)) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = '$schema' AND c.relkind = 'r'")
label=""
[[ ${HOLD:-0} == 1 ]] && label=" (transaction held open)"
python3 -c "
t = $end - $start
print(f'postgres store$label: {$total} events by $producers producers in {t:.2f} s: {$total / t:,.0f} events/s delivered; '
      f'WAL {$wal_bytes / $total:.0f} bytes/event, tables {$table_bytes / $total:.0f} bytes/event')"
sql "DROP SCHEMA $schema CASCADE" > /dev/null
