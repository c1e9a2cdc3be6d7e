#!/usr/bin/env bash
# Measures the product page's cost per stage, in one run: the bare page (no blocks), the page with its
# blocks uncached (every page asks the vendors), and with its blocks cached (--cache-ttl), plus the same
# bytes served from memory with no work. Two release servers on 127.0.0.1 (one uncached, one cached) run
# with --profile; their vendor is one stand-in in its own process (--stand-in-only), as a remote vendor
# would be, so its answering and parsing are not counted; wrk drives each case in turn.
#
# Per page it reports the process's CPU (utime+stime from /proc, so Linux only) and its split:
#   decode  parsing and decoding the vendors' replies        } thread CPU of each stage, summed by the
#   render  rendering the blocks                              } server (StageClock, --profile) and divided
#   track   journaling the impressions                        } by the pages served
#   lookup  finding the blocks in the cache (cached)          }
#   remember  remembering the blocks shown per visitor        }
#   serve   everything a bare page costs (HTTP, routing, cookies, the page's HTML): the bare page's CPU per page
#   rest    total minus the above: building and sending the vendor requests and reading the replies
#           (uncached), the trackers encoding and delivering events to the stand-in in the background,
#           and writing the larger page (profile.sh splits it further, from perf samples)
# A fifth case asks for the cached page as a crawler: the same blocks, but no impressions remembered,
# journaled or delivered (the impression policy's bots record nothing), so the difference between it and
# the cached case is what tracking costs a page. Each run's CPU is read 2 s after wrk stops, once the
# trackers have delivered that run's events. From each storefront's /metrics (the trackers' batch
# histogram) it also reports how many requests the trackers sent to the vendors and how many events each held.
# Not run by CI (a benchmark, not a test). Needs `wrk` (Debian: apt-get install -y wrk).
# Usage: Samples/Storefront/measure.sh [duration, default 10s] [connections, default 16] [threads, default 2]
# STOREFRONT_BIN=path measures that binary as it is, without building (to compare two builds).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$here"
duration="${1:-10s}"; connections="${2:-16}"; threads="${3:-2}"
port="${STOREFRONT_PORT:-18080}"; cached_port=$((port + 2)); vendor_port=$((port + 4))
command -v wrk >/dev/null || { echo "measure.sh: wrk is not installed (apt-get install -y wrk)" >&2; exit 1; }
[ -r /proc/self/stat ] || { echo "measure.sh: needs /proc (Linux) to read the server's CPU time" >&2; exit 1; }

# shellcheck source=bench-setup.sh
source "$here/bench-setup.sh"
start_stand_in "$vendor_port"

start_server uncached "$port" --static-page "$work/page.html" --profile
uncached_pid=${pids[1]}
start_server cached "$cached_port" --static-page "$work/page.html" --profile --cache-ttl 60
cached_pid=${pids[2]}

# The page with its blocks, kept: /static serves these bytes as they are (the reference for the bytes alone).
curl -fsS -o "$work/page.html" "http://127.0.0.1:$port/products/100900"
grep -q 'data-reco-instance-id' "$work/page.html" \
    || { echo "measure.sh: the page has no blocks; see the log:" >&2; cat "$work/uncached.log" >&2; exit 1; }

ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }
profile() { curl -fsS "http://127.0.0.1:$1/profile"; }
# The trackers' batch histogram, summed over destinations: "requests events" (its _count and _sum).
batches() {
    curl -fsS "http://127.0.0.1:$1/metrics" | awk '
        /^recokit_tracking_batch_events_count[{ ]/ { n += $NF } /^recokit_tracking_batch_events_sum[{ ]/ { e += $NF }
        END { printf "%d %d", n, e }'
}
field() { grep -o "\"$2\":[0-9]*" <<< "$1" | cut -d: -f2; }

user_agent="Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36"
crawler="Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"
# run label port pid uri [duration] [user agent]: one wrk run; saves req/s, p99, and the CPU and stage figures per page.
run() {
    local label=$1 at=$2 pid=$3 uri=$4 length=${5:-$duration} agent=${6:-$user_agent}
    local before_ticks before after_ticks after before_batches after_batches
    before_ticks=$(ticks "$pid"); before=$(profile "$at"); before_batches=$(batches "$at")
    # A browser's User-Agent: without one the storefront takes wrk for a bot and records no impressions.
    wrk -t"$threads" -c"$connections" -d"$length" --latency -H "User-Agent: $agent" "http://127.0.0.1:$at$uri" > "$work/$label.txt"
    # The trackers deliver in the background: their work for these pages is counted once it is done.
    sleep 2
    after_ticks=$(ticks "$pid"); after=$(profile "$at"); after_batches=$(batches "$at")
    local requests rps p99
    requests=$(awk '/requests in/ { print $1 }' "$work/$label.txt")
    rps=$(awk '/^Requests\/sec:/ { print $2 }' "$work/$label.txt")
    p99=$(awk '$1 == "99%" { print $2 }' "$work/$label.txt")
    local stage
    {
        echo "rps=$rps"; echo "p99=$p99"; echo "requests=$requests"
        # Requests the trackers sent to the vendors for these pages, and events per request.
        echo "vendor_requests=$(awk -v a="$after_batches" -v b="$before_batches" 'BEGIN { split(a, x, " "); split(b, y, " "); print x[1] - y[1] }')"
        echo "batch_events=$(awk -v a="$after_batches" -v b="$before_batches" 'BEGIN { split(a, x, " "); split(b, y, " "); n = x[1] - y[1]; printf "%.1f", (n > 0 ? (x[2] - y[2]) / n : 0) }')"
        echo "cpu_us=$(awk -v t=$((after_ticks - before_ticks)) -v hz="$(getconf CLK_TCK)" -v n="$requests" 'BEGIN { printf "%.1f", t / hz * 1e6 / n }')"
        for stage in decode render track lookup remember; do
            echo "${stage}_us=$(awk -v a="$(field "$after" "${stage}_ns")" -v b="$(field "$before" "${stage}_ns")" -v n="$requests" 'BEGIN { printf "%.1f", (a - b) / 1e3 / n }')"
        done
    } > "$work/$label.figures"
}
get() { grep "^$2=" "$work/$1.figures" | cut -d= -f2; }

echo "wrk -t$threads -c$connections -d$duration --latency, release build, 127.0.0.1; CPU per page from /proc (clock ticks of 1/$(getconf CLK_TCK) s)"
run warm-up "$port" "$uncached_pid" "/products/100900" 3s
run warm-up-cached "$cached_port" "$cached_pid" "/products/100900" 3s
run bare "$port" "$uncached_pid" "/products/100900?blocks=off"
run uncached "$port" "$uncached_pid" "/products/100900"
run cached "$cached_port" "$cached_pid" "/products/100900"
# The same cached page asked for by a crawler: the same blocks, but nothing remembered, tracked or delivered.
run cached-bot "$cached_port" "$cached_pid" "/products/100900" "$duration" "$crawler"
run same-bytes "$port" "$uncached_pid" "/static"

serve=$(get bare cpu_us)
printf '%-11s %10s %9s %9s | %8s %8s %8s %8s %8s %8s %8s  (CPU µs per page)\n' case "req/s" p99 total decode render track lookup remember serve rest
for label in bare same-bytes uncached cached cached-bot; do
    total=$(get "$label" cpu_us); decode=$(get "$label" decode_us); render=$(get "$label" render_us); track=$(get "$label" track_us)
    lookup=$(get "$label" lookup_us); remember=$(get "$label" remember_us)
    if [ "$label" = uncached ] || [ "$label" = cached ] || [ "$label" = cached-bot ]; then
        rest=$(awk -v t="$total" -v d="$decode" -v r="$render" -v k="$track" -v l="$lookup" -v m="$remember" -v s="$serve" 'BEGIN { printf "%.1f", t - d - r - k - l - m - s }')
        printf '%-11s %10s %9s %9s | %8s %8s %8s %8s %8s %8s %8s\n' "$label" "$(get "$label" rps)" "$(get "$label" p99)" "$total" "$decode" "$render" "$track" "$lookup" "$remember" "$serve" "$rest"
    else
        printf '%-11s %10s %9s %9s |\n' "$label" "$(get "$label" rps)" "$(get "$label" p99)" "$total"
    fi
done
awk -v bare="$(get bare rps)" -v uncached="$(get uncached rps)" -v cached="$(get cached rps)" -v bytes="$(get same-bytes rps)" \
    -v bot="$(get cached-bot rps)" -v size="$(wc -c < "$work/page.html")" 'BEGIN {
        printf "blocks cost %.1f%% of the bare page'\''s throughput uncached, %.1f%% cached\n", (1 - uncached / bare) * 100, (1 - cached / bare) * 100
        printf "cached, for a crawler (nothing remembered or tracked): %.1f%%; tracking is the difference\n", (1 - bot / bare) * 100
        printf "the page with blocks (%d bytes) served from memory with no work costs %.1f%% of it\n", size, (1 - bytes / bare) * 100
    }'
# How the trackers batched each run's impressions: requests sent to the vendors and events per request.
for label in uncached cached; do
    echo "$label: the trackers sent $(get "$label" vendor_requests) requests to the vendors, $(get "$label" batch_events) events each, for $(get "$label" requests) pages"
done
# Each vendor that gave a page no block logs one line: count them by vendor and reason.
cat "$work/uncached.log" "$work/cached.log" \
    | grep -oE "(segmentify|reteno) (did not answer|unreachable|unusable|reply not usable|block left out|answered HTTP [0-9]+)" | sort | uniq -c \
    | awk '{ n = $1; $1 = ""; print "pages without a block:" $0 ": " n }' || true
