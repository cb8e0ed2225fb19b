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
# $work, a private bus (lib/private-bus.sh says what it sets up).
source "$(dirname "$0")/lib/private-bus.sh"
start_sync_fixture

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
