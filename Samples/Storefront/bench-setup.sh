# Sourced by measure.sh and profile.sh (not run on its own): the release binary, a scratch folder removed
# at exit with every process started, the stand-in vendor in its own process and the storefronts.
# STOREFRONT_BIN=path uses that binary as it is (to compare two builds); otherwise the release product is built.
if [ -n "${STOREFRONT_BIN:-}" ]; then
    bin="$STOREFRONT_BIN"
else
    swift build -c release --product Storefront >/dev/null
    bin="$(swift build -c release --show-bin-path)/Storefront"
fi
work="$(mktemp -d)"
pids=()
cleanup() { for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done; rm -rf "$work"; }
trap cleanup EXIT

# start_stand_in PORT: the stand-in vendor alone, answering once it is up.
start_stand_in() {
    "$bin" --stand-in-only --vendor-port "$1" > "$work/stand-in.log" 2>&1 &
    pids+=($!)
    for _ in $(seq 1 100); do curl -fsS -o /dev/null "http://127.0.0.1:$1/stand-in/events" 2>/dev/null && return 0; sleep 0.1; done
    echo "the stand-in vendor did not start; its log:" >&2; cat "$work/stand-in.log" >&2; exit 1
}

# start_server NAME PORT [options…]: a storefront on PORT whose vendor is the stand-in on $vendor_port,
# with a journal of its own, answering once it is up; its pid is the last in pids.
start_server() {
    local name=$1 at=$2; shift 2
    "$bin" --port "$at" --vendor-url "http://127.0.0.1:$vendor_port" --journal "$work/$name-journal" "$@" > "$work/$name.log" 2>&1 &
    pids+=($!)
    for _ in $(seq 1 100); do
        curl -fsS -o /dev/null "http://127.0.0.1:$at/products/100900?blocks=off" 2>/dev/null && return 0
        sleep 0.1
    done
    echo "the $name server did not start; its log:" >&2; cat "$work/$name.log" >&2; exit 1
}
