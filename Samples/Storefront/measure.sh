#!/usr/bin/env bash
# Measures the product page with and without its recommendation blocks, one run beside the other
# (and, as a reference, the same bytes as the page with blocks served from memory with no work),
# with wrk against a release build on 127.0.0.1 (loopback only). Needs `wrk` (Debian: apt-get install -y wrk).
# Usage: Samples/Storefront/measure.sh [duration, default 10s] [connections, default 16] [threads, default 2]
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$here"
duration="${1:-10s}"; connections="${2:-16}"; threads="${3:-2}"
port="${STOREFRONT_PORT:-18080}"; vendor_port="${STOREFRONT_VENDOR_PORT:-18081}"
command -v wrk >/dev/null || { echo "measure.sh: wrk is not installed (apt-get install -y wrk)" >&2; exit 1; }

swift build -c release --product Storefront >/dev/null
journal="$(mktemp -d)"
# Extra server options (for example --cache-ttl 60) come from STOREFRONT_MEASURE_OPTIONS.
# shellcheck disable=SC2086
"$(swift build -c release --show-bin-path)/Storefront" --port "$port" --vendor-port "$vendor_port" --journal "$journal/journal" \
    --static-page "$journal/page.html" ${STOREFRONT_MEASURE_OPTIONS:-} > "$journal/server.log" 2>&1 &
server=$!
cleanup() { kill -TERM "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; rm -rf "$journal"; }
trap cleanup EXIT
for _ in $(seq 1 100); do
    curl -fsS -o /dev/null "http://127.0.0.1:$port/products/100900?blocks=off" 2>/dev/null && break
    sleep 0.1
done
# The page with its blocks, kept: /static serves these bytes as they are (the reference for the bytes alone).
curl -fsS -o "$journal/page.html" "http://127.0.0.1:$port/products/100900"
grep -q 'data-reco-instance-id' "$journal/page.html" \
    || { echo "measure.sh: the page has no blocks; see $journal/server.log" >&2; cat "$journal/server.log" >&2; exit 1; }

run() { # label, uri, [duration]
    wrk -t"$threads" -c"$connections" -d"${3:-$duration}" --latency "http://127.0.0.1:$port$2" > "$journal/$1.txt"
    local rps p99
    rps=$(awk '/^Requests\/sec:/ {print $2}' "$journal/$1.txt")
    p99=$(awk '$1 == "99%" {print $2}' "$journal/$1.txt")
    printf '%-16s %12s req/s   p99 %s\n' "$1" "$rps" "$p99"
    echo "$rps" > "$journal/$1.rps"
}
echo "wrk -t$threads -c$connections -d$duration --latency, release build, 127.0.0.1, options: ${STOREFRONT_MEASURE_OPTIONS:-none}"
run warm-up "/products/100900" 3s >/dev/null
run without-blocks "/products/100900?blocks=off"
run with-blocks "/products/100900"
run same-bytes "/static"
# Each vendor that gave a page no block logs one line: count them by vendor and reason.
grep -oE "(segmentify|reteno) (did not answer|unreachable|unusable|reply not usable|block left out|answered HTTP [0-9]+)" "$journal/server.log" | sort | uniq -c \
    | awk '{ n = $1; $1 = ""; print "pages without a block:" $0 ": " n }' || true
awk -v with="$(cat "$journal/with-blocks.rps")" -v without="$(cat "$journal/without-blocks.rps")" \
    -v bytes="$(cat "$journal/same-bytes.rps")" -v size="$(wc -c < "$journal/page.html")" 'BEGIN {
        printf "blocks cost %.1f%% of throughput\n", (1 - with / without) * 100
        printf "the page with blocks (%d bytes) served from memory with no work costs %.1f%% of it\n", size, (1 - bytes / without) * 100
    }'
