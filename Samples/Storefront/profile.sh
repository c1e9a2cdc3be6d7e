#!/usr/bin/env bash
# Where a page's CPU goes, by part: `perf record` of one release storefront (blocks cached, --cache-ttl)
# while wrk asks for the bare page (?blocks=off), the cached page as a crawler (the same blocks, nothing
# remembered, journaled or delivered) and the cached page as a person (the blocks' impressions remembered,
# journaled and delivered in the background). Each case's samples are split by profile-split.py into
# parts (tracking's delivery, journaling, memory of blocks shown, the cache lookup, cookies, the page's
# HTML, HTTP parsing and writing, scheduling…) and printed as CPU µs per page, with the differences
# crawler − bare (what the blocks themselves cost) and person − crawler (what tracking costs).
#
# measure.sh gives the throughput and the stages the server times itself; this gives what its `rest`
# is made of. The server runs without --profile here (its clock reads would be counted). The stand-in
# vendor runs in its own process and is not recorded. Each case records 3 s past wrk's end, so the
# trackers' delivery of that case's events is counted.
# Not run by CI (a benchmark). Needs Linux, perf (Debian: linux-perf), wrk and python3; perf must be
# allowed to record the process (root, or kernel.perf_event_paranoid ≤ 1).
# Usage: Samples/Storefront/profile.sh [duration, default 10s] [connections, default 16] [threads, default 2]
# STOREFRONT_BIN=path profiles that binary as it is, without building.
# PROFILE_DELIVERY=held stops the stand-in vendor after the warm-up (the blocks stay cached for the run):
# the trackers journal the person's impressions and deliver none, so person − crawler is what tracking
# costs a page without delivery, and the difference from a run without it what delivery costs.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$here"
duration="${1:-10s}"; connections="${2:-16}"; threads="${3:-2}"
port="${STOREFRONT_PORT:-18090}"; vendor_port=$((port + 4)); hz=999
[[ "$duration" =~ ^[0-9]+s$ ]] || { echo "profile.sh: give the duration in seconds, as 10s (got $duration)" >&2; exit 2; }
for tool in perf wrk python3; do
    command -v "$tool" >/dev/null || { echo "profile.sh: $tool is not installed (Debian: apt-get install -y linux-perf wrk python3)" >&2; exit 1; }
done

# shellcheck source=bench-setup.sh
source "$here/bench-setup.sh"
start_stand_in "$vendor_port"
start_server server "$port" --cache-ttl 600
server=${pids[-1]}
curl -fsS -o "$work/page.html" "http://127.0.0.1:$port/products/100900"
grep -q 'data-reco-instance-id' "$work/page.html" || { echo "profile.sh: the page has no blocks; see the log:" >&2; cat "$work/server.log" >&2; exit 1; }
perf record -F "$hz" -p "$server" -o "$work/check.data" -- sleep 0.2 > "$work/perf-check.log" 2>&1 \
    || { echo "profile.sh: perf cannot record the server (run as root, or set kernel.perf_event_paranoid to 1):" >&2; cat "$work/perf-check.log" >&2; exit 1; }

person="Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36"
crawler="Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"
wrk -t"$threads" -c"$connections" -d3s -H "User-Agent: $person" "http://127.0.0.1:$port/products/100900" > /dev/null # warm-up
if [[ "${PROFILE_DELIVERY:-}" == held ]]; then
    kill -TERM "${pids[0]}"; wait "${pids[0]}" 2>/dev/null || true
    echo "delivery held: the stand-in vendor is stopped, the trackers keep what they take"
fi
sleep 2
seconds=$(( ${duration%s} + 4 ))
# record label uri user-agent: one wrk run under perf; leaves LABEL=PAGES:FILE in $work/cases.
record() {
    local label=$1 uri=$2 agent=$3
    perf record -F "$hz" -g -p "$server" -o "$work/$label.data" -- sleep "$seconds" > "$work/perf-$label.log" 2>&1 &
    local recorder=$!
    sleep 1
    wrk -t"$threads" -c"$connections" -d"$duration" -H "User-Agent: $agent" "http://127.0.0.1:$port$uri" > "$work/$label.txt"
    wait "$recorder"
    perf script -i "$work/$label.data" -F comm,ip,sym > "$work/$label.stacks" 2>/dev/null
    echo "$label=$(awk '/requests in/ { print $1 }' "$work/$label.txt"):$work/$label.stacks" >> "$work/cases"
    printf '%-8s %s req/s\n' "$label" "$(awk '/^Requests\/sec:/ { print $2 }' "$work/$label.txt")"
}
echo "wrk -t$threads -c$connections -d$duration, release build, 127.0.0.1; perf record -F $hz -g of the server"
record bare "/products/100900?blocks=off" "$person"
record crawler "/products/100900" "$crawler"
record person "/products/100900" "$person"
# shellcheck disable=SC2046
python3 "$here/profile-split.py" "$hz" $(cat "$work/cases")
