#!/usr/bin/env bash
# Live-path figures against the simulated bottle on a private bus (no hardware):
#   * a 600-record sync by `run --once` (wall time, and per chunk);
#   * the idle daemon: resident memory and wake-ups (context switches) over 60 s.
#
#   scripts/release-build.sh --scratch-path .build-bench   # the release build (make build)
#   scripts/release-build.sh --scratch-path .build-bench --product aquavate-sim
#   Benchmarks/live-daemon.sh [BIN_DIR]          # default .build-bench/release
set -euo pipefail
bin=${1:-.build-bench/release}
# $work, a private bus (lib/private-bus.sh says what it sets up).
source "$(dirname "$0")/lib/private-bus.sh"

"$bin/aquavate-sim" --records 600 --disconnect-delay 0.1 --state-file "$work/state.json" 2> "$work/sim.log" &
for _ in $(seq 50); do [ -s "$work/state.json" ] && break; sleep 0.1; done
start=$(date +%s.%N)
"$bin/aquavate-bridge" run --once --db "$work/h.sqlite" > "$work/run.log" 2>&1
end=$(date +%s.%N)
echo "live: 600 records, 36 chunks, run --once end to end: $(echo "($end - $start) * 1000" | bc -l | cut -d. -f1) ms (includes process start, discovery, connect, and the simulator's own D-Bus work)"
grep -o "advertising; connecting" "$work/run.log" > /dev/null && echo "live: $(grep -c 'drink #' "$work/run.log") drinks stored"

# Idle: no bottle advertising (the simulator is told to sleep), the daemon waits.
kill %2 2>/dev/null || true
"$bin/aquavate-sim" --records 0 --fault no-advertise 2> "$work/sim2.log" &
sleep 0.5
"$bin/aquavate-bridge" run --db "$work/h.sqlite" > "$work/idle.log" 2>&1 &
daemon=$!
sleep 5
# Per thread (by id): a libdispatch worker that exits within the minute would take its count
# out of a plain sum.
switches() {
    for task in /proc/$daemon/task/*; do
        name=$(tr ' ' _ < $task/comm 2>/dev/null) || continue
        count=$(awk '/^voluntary_ctxt_switches/ {print $2}' $task/status 2>/dev/null) || continue
        [ -n "$count" ] && echo "${task##*/} $name $count"
    done
}
switches > "$work/switches0"
sleep 60
switches > "$work/switches1"
rss=$(awk '/VmRSS/ {print $2}' /proc/$daemon/status)
anon=$(awk '/RssAnon/ {print $2}' /proc/$daemon/status)
echo "idle: resident $((rss * 10 / 1024 / 10)).$((rss * 10 / 1024 % 10)) MiB after 65 s ($((anon / 1024)) MiB anonymous, the rest mapped code and data)"
awk 'NR == FNR {before[$1] = $3; next} {n = $3 - (($1 in before) ? before[$1] : 0); total += n; printf "idle: thread %s (%s): %d wake-ups in the 60 s%s\n", $1, $2, n, ($1 in before) ? "" : " (started meanwhile)"} END {printf "idle: %d wake-ups in 60 s over all threads\n", total}' "$work/switches0" "$work/switches1"
kill -TERM $daemon; wait $daemon 2>/dev/null || true
