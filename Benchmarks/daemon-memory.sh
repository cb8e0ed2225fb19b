#!/usr/bin/env bash
# The daemon's resident memory, idle and syncing: the figures MemoryHigh= and MemoryMax= in
# systemd/aquavate-bridge.service are sized from. Against the simulated bottle on a private bus
# (no hardware), release build:
#   * idle: `run`, no bottle advertising, resident memory after 65 s (VmRSS) and its peak (VmHWM);
#   * syncing: `run --cooldown 0` through SYNCS syncs of 600 records each (a fresh simulator per
#     sync: the same records, so the later ones store nothing new but move every chunk), peak
#     resident memory (VmHWM) at the end.
#
#   scripts/release-build.sh --scratch-path .build-bench   # the release build (make build)
#   scripts/release-build.sh --scratch-path .build-bench --product aquavate-sim
#   Benchmarks/daemon-memory.sh [BIN_DIR [SYNCS]]     # default .build-bench/release 5
set -euo pipefail
bin=${1:-.build-bench/release}
syncs=${2:-5}
# $work, a private bus (lib/private-bus.sh says what it sets up).
source "$(dirname "$0")/lib/private-bus.sh"

kib() { awk -v key="$1:" '$1 == key {print $2}' "/proc/$2/status"; }
mib() { echo "scale=1; $1 / 1024" | bc; }

# Idle: the bottle asleep, the daemon waits for it.
"$bin/aquavate-sim" --records 0 --fault no-advertise --state-file "$work/idle.json" 2> "$work/sim-idle.log" &
sim=$!
for _ in $(seq 50); do [ -s "$work/idle.json" ] && break; sleep 0.1; done
"$bin/aquavate-bridge" run --db "$work/idle.sqlite" > "$work/idle.log" 2>&1 &
daemon=$!
sleep 65
echo "idle: resident $(mib "$(kib VmRSS $daemon)") MiB after 65 s (peak $(mib "$(kib VmHWM $daemon)") MiB, $(mib "$(kib RssAnon $daemon)") MiB anonymous)"
kill -TERM $daemon; wait $daemon 2>/dev/null || true
kill -TERM $sim; wait $sim 2>/dev/null || true

# Syncing: one daemon, SYNCS bottles of 600 records one after the other.
"$bin/aquavate-bridge" run --cooldown 0 --db "$work/sync.sqlite" > "$work/sync.log" 2>&1 &
daemon=$!
for i in $(seq "$syncs"); do
    rm -f "$work/sim.json"
    "$bin/aquavate-sim" --records 600 --disconnect-delay 0.1 --state-file "$work/sim.json" 2> "$work/sim-$i.log" &
    sim=$!
    for _ in $(seq 600); do
        [ "$(grep -c '^info: synced ' "$work/sync.log" || true)" -ge "$i" ] && break
        sleep 0.1
    done
    [ "$(grep -c '^info: synced ' "$work/sync.log" || true)" -ge "$i" ] || { echo "sync $i did not finish: $(tail -3 "$work/sync.log")"; exit 1; }
    echo "sync $i: resident $(mib "$(kib VmRSS $daemon)") MiB, peak so far $(mib "$(kib VmHWM $daemon)") MiB"
    kill -TERM $sim; wait $sim 2>/dev/null || true
done
echo "syncing: peak resident $(mib "$(kib VmHWM $daemon)") MiB over $syncs syncs of 600 records ($(mib "$(kib RssAnon $daemon)") MiB anonymous at the end)"
kill -TERM $daemon; wait $daemon 2>/dev/null || true
