#!/usr/bin/env bash
# The bridge against a Python bleak client doing the same one-shot sync (Benchmarks/bleak_sync.py),
# side by side in one run, on one simulator (docs/design.md 5: the whole `run --once` of 600
# records ≤ 0.5× the bleak client's, resident memory below it).
#
# One private dbus-daemon, one simulator whose BlueZ and radio delays are ~1 ms (`--instant`) and
# whose 600 records are unsynced again after every disconnect (`--unsync-on-disconnect`), so that
# every run syncs the same 600 records (36 chunks of 17) into a fresh database. The two clients run
# in turn, A B A B …, RUNS times each after one warm-up of each; every run is a whole process, start
# to exit, timed from outside (wall) and by GNU time (user+sys, peak resident memory). Prints each run, the medians
# and the median of the pairwise ratios bridge / bleak.
#
# bleak 3.1 is installed from PyPI into a virtual environment the script creates (VENV, default
# .build-bench/bleak-venv; /usr/bin/python3). bleak finds BlueZ on the system bus, which is pointed
# at the private bus by DBUS_SYSTEM_BUS_ADDRESS.
#
#   scripts/release-build.sh --scratch-path .build-bench                          # the release build
#   scripts/release-build.sh --scratch-path .build-bench --product aquavate-sim
#   Benchmarks/vs-bleak.sh [BIN_DIR [RUNS]]        # default .build-bench/release 9
#   BEFORE=OTHER_BIN_DIR Benchmarks/vs-bleak.sh …  # a third client in each round: another build of
#                                                  # the bridge (e.g. main's), against the same simulator
set -euo pipefail
bin=${1:-.build-bench/release}
runs=${2:-9}
here=$(cd "$(dirname "$0")" && pwd)
venv=${VENV:-.build-bench/bleak-venv}
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c 'import bleak, sys; sys.exit(0 if __import__("importlib.metadata").metadata.version("bleak").startswith("3.1") else 1)' 2>/dev/null; then
    /usr/bin/python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet 'bleak==3.1.*'
fi
# $work, a private bus (lib/private-bus.sh says what it sets up).
source "$(dirname "$0")/lib/private-bus.sh"
start_sync_fixture

bridge=("$(cd "$bin" && pwd)/aquavate-bridge" run --once --db "$work/bridge.sqlite")
bleak=("$venv/bin/python" "$here/bleak_sync.py" "$work/bleak.sqlite")
before=()
[ -n "${BEFORE:-}" ] && before=("$(cd "$BEFORE" && pwd)/aquavate-bridge" run --once --db "$work/before.sqlite")

# One run: a fresh database, the process timed by GNU time; prints "wall cpu peak_kib".
one() {
    local db=$1; shift
    rm -f "$db" "$db-wal" "$db-shm"
    local t0 t1
    t0=$(date +%s%N)
    /usr/bin/time -f '%U %S %M' -o "$work/time" "$@" > "$work/out" 2>&1 || { echo "failed: $*" >&2; cat "$work/out" >&2; exit 1; }
    t1=$(date +%s%N)
    local stored
    stored=$(sqlite3 "$db" 'SELECT count(*) FROM drink')
    [ "$stored" = 600 ] || { echo "$1: stored $stored drinks, not 600" >&2; cat "$work/out" >&2; exit 1; }
    awk -v ns=$((t1 - t0)) '{printf "%.3f %.2f %d\n", ns / 1e9, $1 + $2, $3}' "$work/time"
}

echo "machine: $(nproc) cores, $(awk -F': ' '/model name/ {print $2; exit}' /proc/cpuinfo), $(uname -r)"
one "$work/bridge.sqlite" "${bridge[@]}" > /dev/null   # warm-up: page cache, the venv's .pyc files
one "$work/bleak.sqlite" "${bleak[@]}" > /dev/null
: > "$work/results"
[ ${#before[@]} -gt 0 ] && one "$work/before.sqlite" "${before[@]}" > /dev/null
: > "$work/before-results"
for i in $(seq "$runs"); do
    a=$(one "$work/bridge.sqlite" "${bridge[@]}")
    b=$(one "$work/bleak.sqlite" "${bleak[@]}")
    echo "$a $b" >> "$work/results"
    read -r aw ac am bw bc bm <<< "$a $b"
    printf 'run %d: bridge %.3f s wall, %.2f s cpu, %.1f MiB peak | bleak %.3f s wall, %.2f s cpu, %.1f MiB peak\n' \
        "$i" "$aw" "$ac" "$(echo "$am / 1024" | bc -l)" "$bw" "$bc" "$(echo "$bm / 1024" | bc -l)"
    if [ ${#before[@]} -gt 0 ]; then
        c=$(one "$work/before.sqlite" "${before[@]}")
        echo "$c $b" >> "$work/before-results"
        read -r cw cc cm <<< "$c"
        printf '       before: %.3f s wall, %.2f s cpu, %.1f MiB peak\n' "$cw" "$cc" "$(echo "$cm / 1024" | bc -l)"
    fi
done
median() { sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
col() { awk -v c="$1" '{print $c}' "$work/results" | median; }
printf 'median of %d: bridge %.3f s wall, %.2f s cpu, %.1f MiB peak resident | bleak %.3f s wall, %.2f s cpu, %.1f MiB peak resident\n' \
    "$runs" "$(col 1)" "$(col 2)" "$(echo "$(col 3) / 1024" | bc -l)" "$(col 4)" "$(col 5)" "$(echo "$(col 6) / 1024" | bc -l)"
printf 'ratio bridge/bleak (median of the %d pairs): wall %.2f×, cpu %.2f×, peak resident %.2f×\n' "$runs" \
    "$(awk '{print $1 / $4}' "$work/results" | median)" "$(awk '{print ($5 > 0) ? $2 / $5 : 0}' "$work/results" | median)" \
    "$(awk '{print $3 / $6}' "$work/results" | median)"
if [ ${#before[@]} -gt 0 ]; then
    bcol() { awk -v c="$1" '{print $c}' "$work/before-results" | median; }
    printf 'before (%s): median %.3f s wall, %.2f s cpu, %.1f MiB peak resident; ratio before/bleak: wall %.2f×, cpu %.2f×, peak resident %.2f×\n' \
        "$BEFORE" "$(bcol 1)" "$(bcol 2)" "$(echo "$(bcol 3) / 1024" | bc -l)" "$(awk '{print $1 / $4}' "$work/before-results" | median)" \
        "$(awk '{print ($5 > 0) ? $2 / $5 : 0}' "$work/before-results" | median)" "$(awk '{print $3 / $6}' "$work/before-results" | median)"
fi
