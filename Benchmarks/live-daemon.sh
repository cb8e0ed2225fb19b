#!/usr/bin/env bash
# Live-path figures against the simulated bottle on a private bus (no hardware):
#   * a 600-record sync by `run --once` (wall time, and per chunk);
#   * the idle daemon: resident memory and wake-ups (context switches) over 60 s.
#
#   swift build -c release --product aquavate-bridge --scratch-path .build-bench
#   swift build -c release --product aquavate-sim --scratch-path .build-bench
#   Benchmarks/live-daemon.sh [BIN_DIR]          # default .build-bench/release
set -euo pipefail
bin=${1:-.build-bench/release}
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT
dbus-daemon --session --nofork --print-address=1 --address="unix:path=$work/bus.sock" > "$work/addr" 2>/dev/null &
for _ in $(seq 50); do [ -s "$work/addr" ] && break; sleep 0.1; done
export DBUS_SYSTEM_BUS_ADDRESS=$(head -1 "$work/addr")
unset DBUS_SESSION_BUS_ADDRESS

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
cs0=$(awk '/voluntary_ctxt_switches/ {s+=$2} END {print s}' /proc/$daemon/task/*/status)
sleep 60
cs1=$(awk '/voluntary_ctxt_switches/ {s+=$2} END {print s}' /proc/$daemon/task/*/status)
rss=$(awk '/VmRSS/ {print $2}' /proc/$daemon/status)
anon=$(awk '/RssAnon/ {print $2}' /proc/$daemon/status)
echo "idle: resident $((rss / 1024)) MiB after 65 s ($((anon / 1024)) MiB anonymous, the rest mapped libraries); $((cs1 - cs0)) context switches in 60 s over all threads (wake-ups)"
for task in /proc/$daemon/task/*; do
    echo "idle: thread $(cat $task/comm): $(awk '/^voluntary_ctxt_switches/ {print $2}' $task/status) voluntary switches since start"
done
kill -TERM $daemon; wait $daemon 2>/dev/null || true
