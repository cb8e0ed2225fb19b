#!/usr/bin/env bash
# Makes packaging/hot-code.order: the functions of the bridge's executable that its common work
# runs, for the linker to lay out side by side (scripts/release-build.sh says why).
#
# Profiles, each under valgrind --tool=callgrind (instructions per function; slow, ~5 s each):
#   - `run --once` of 600 records from the simulator into a fresh history (the fixture of
#     Benchmarks/vs-bleak.sh), which is also what a daemon's sync runs;
#   - `run --once` again into that history (nothing new: the idle path of a sync);
#   - `status` and `history` on it.
# Then scripts/hot-code-order.py lists the executable's functions that ran, hottest first.
# Run it after changes that move much code (it is a layout hint: a stale list costs memory, never
# correctness), then rebuild with scripts/release-build.sh. Needs valgrind (apt: valgrind).
#
#   Benchmarks/hot-code.sh [BIN_DIR]      # default .build-bench/release (scripts/release-build.sh
#                                         # --scratch-path .build-bench, and --product aquavate-sim)
# The link map of that build (BIN_DIR/../aquavate-bridge.map, written by scripts/release-build.sh)
# says which functions sit in large sections, which the list leaves out.
set -euo pipefail
bin=${1:-.build-bench/release}
here=$(cd "$(dirname "$0")/.." && pwd)
map="$(dirname "$bin")/aquavate-bridge.map"
[ -f "$map" ] || { echo "hot-code.sh: no link map at $map: build with scripts/release-build.sh" >&2; exit 1; }
command -v valgrind >/dev/null || { echo "hot-code.sh: valgrind is missing (apt install valgrind)" >&2; exit 1; }
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT
dbus-daemon --session --nofork --print-address=1 --address="unix:path=$work/bus.sock" > "$work/addr" 2>/dev/null &
for _ in $(seq 50); do [ -s "$work/addr" ] && break; sleep 0.1; done
export DBUS_SYSTEM_BUS_ADDRESS=$(head -1 "$work/addr")
unset DBUS_SESSION_BUS_ADDRESS NOTIFY_SOCKET WATCHDOG_USEC
"$bin/aquavate-sim" --records 600 --instant --unsync-on-disconnect --quiet 2> "$work/sim.log" &
for _ in $(seq 100); do grep -qs ' with 600 records at ' "$work/sim.log" && break; sleep 0.1; done

# A copy without debug information: valgrind cannot read Swift's DWARF, and the symbol table is
# what the list is made of.
cp "$bin/aquavate-bridge" "$work/aquavate-bridge"
strip --strip-debug "$work/aquavate-bridge"
profile() {
    local name=$1; shift
    valgrind --tool=callgrind --demangle=no --callgrind-out-file="$work/$name.callgrind" \
        "$work/aquavate-bridge" "$@" > "$work/$name.log" 2>&1 \
        || { echo "hot-code.sh: '$*' failed under valgrind:" >&2; tail -5 "$work/$name.log" >&2; exit 1; }
}
profile sync run --once --db "$work/history.sqlite"
[ "$(sqlite3 "$work/history.sqlite" 'SELECT count(*) FROM drink')" = 600 ] \
    || { echo "hot-code.sh: the profiled sync did not store 600 drinks" >&2; exit 1; }
profile again run --once --db "$work/history.sqlite"
profile status status --db "$work/history.sqlite"
profile history history --db "$work/history.sqlite"
/usr/bin/python3 "$here/scripts/hot-code-order.py" "$here/packaging/hot-code.order" "$work/aquavate-bridge" "$map" "$work"/*.callgrind
