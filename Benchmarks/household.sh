#!/usr/bin/env bash
# Household figures (docs/design.md 6) with real parts and no hardware: a mosquitto on loopback
# and N bridge daemons, each with its own private bus and `aquavate-sim` bottle of R drinks.
#   * convergence: from the last daemon's start until every history holds all N × R drinks;
#   * after a partition: the last bridge stopped, a drink deleted on the first, the last one
#     started again: until its history shows the deletion;
#   * broker traffic per drink: the household PUBLISH packets and payload bytes mosquitto logged
#     (what each bridge received and sent), per drink;
#   * after a broker restart without sessions: a new bridge synced alone while the broker was
#     down; from the broker's return until every history holds every drink.
#
#   swift build --product aquavate-bridge && swift build --product aquavate-sim
#   Benchmarks/household.sh [BIN_DIR] [BRIDGES] [RECORDS]     # default .build/debug 3 20
set -euo pipefail
bin=${1:-.build/debug}
bridges=${2:-3}
records=${3:-20}
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; sleep 0.5; rm -rf "$work"' EXIT
# The broker's configuration, now(), ms() and count().
source "$(dirname "$0")/lib/household-broker.sh"
/usr/sbin/mosquitto -c "$work/mosquitto.conf" &
broker=$!

start_bus() {  # $1 = index: a dbus-daemon and a simulator with its own address
    local i=$1 dir="$work/b$1"
    mkdir -p "$dir"
    dbus-daemon --session --nofork --print-address=1 --address="unix:path=$dir/bus.sock" > "$dir/addr" 2>/dev/null &
    for _ in $(seq 50); do [ -s "$dir/addr" ] && break; sleep 0.1; done
    DBUS_SYSTEM_BUS_ADDRESS=$(head -1 "$dir/addr") "$bin/aquavate-sim" --records "$records" --disconnect-delay 0.1 \
        --address "F4:12:FA:00:C$i:0$i" --state-file "$dir/state.json" 2> "$dir/sim.log" &
    for _ in $(seq 50); do [ -s "$dir/state.json" ] && break; sleep 0.1; done
}
start_bridge() {  # $1 = index
    local dir="$work/b$1"
    DBUS_SYSTEM_BUS_ADDRESS=$(head -1 "$dir/addr") XDG_RUNTIME_DIR="$dir" "$bin/aquavate-bridge" run --db "$dir/h.sqlite" \
        --set "mqtt.url=mqtt://127.0.0.1:$port" --set "bridge.id=room$1" --set desktop.enabled=false >> "$dir/run.log" 2>&1 &
    echo $! > "$dir/pid"
}
wait_all() {  # until every history holds $1 drinks; prints the ms it took from $2
    local want=$1 from=$2
    for _ in $(seq 1200); do
        local ok=1
        for i in $(seq "$bridges"); do [ "$(count "$work/b$i/h.sqlite")" = "$want" ] || ok=0; done
        [ $ok = 1 ] && { ms "$from" "$(now)"; return; }
        sleep 0.05
    done
    echo "timeout"
}

for i in $(seq "$bridges"); do start_bus "$i"; done
total=$((bridges * records))
for i in $(seq "$bridges"); do start_bridge "$i"; done
started=$(now)
echo "household: $bridges bridges × $records drinks: every history holds all $total drinks $(wait_all $total "$started") ms after the daemons started (debug build; includes discovery, connect and sync)"

# Traffic: household PUBLISH packets mosquitto received from and sent to the bridges.
received=$(grep -c "Received PUBLISH from aquavate-room.*household/drink" "$work/mosquitto.log" || true)
sent=$(grep -c "Sending PUBLISH to aquavate-room.*household/drink" "$work/mosquitto.log" || true)
bytes=$(grep "Received PUBLISH from aquavate-room.*household/drink" "$work/mosquitto.log" | sed -E 's/.*\(([0-9]+) bytes\).*/\1/' | awk '{s+=$1} END {print s+0}')
echo "household: broker in: $received drink publishes for $total drinks ($(echo "scale=2; $received / $total" | bc) per drink, $((bytes / (received > 0 ? received : 1))) payload bytes each); broker out: $sent ($(echo "scale=2; $sent / $total" | bc) per drink: one to every bridge, the publisher's own echo included, which it drops: MQTT 3.1.1 has no no-local)"

# Partition: the last bridge away, a deletion on the first, the last back.
last=$bridges
kill -TERM "$(cat "$work/b$last/pid")"; wait "$(cat "$work/b$last/pid")" 2>/dev/null || true
serial=$(sqlite3 "$work/b1/h.sqlite" "SELECT id FROM bottle LIMIT 1")
DBUS_SYSTEM_BUS_ADDRESS=$(head -1 "$work/b1/addr") "$bin/aquavate-bridge" bottle delete 3 --bottle "$serial" --db "$work/b1/h.sqlite" > /dev/null
for _ in $(seq 400); do
    [ "$(sqlite3 "$work/b2/h.sqlite" "SELECT deleted FROM drink WHERE bottle = '$serial' AND record_id = 3")" = 1 ] && break
    sleep 0.05
done
back=$(now)
start_bridge "$last"
for _ in $(seq 1200); do
    [ "$(sqlite3 "$work/b$last/h.sqlite" "SELECT deleted FROM drink WHERE bottle = '$serial' AND record_id = 3" 2>/dev/null)" = 1 ] && break
    sleep 0.05
done
echo "household: after a partition, the returning bridge holds the deletion $(ms "$back" "$(now)") ms after it started again (process start, MQTT connect, session replay)"
# Broker restart without sessions: the broker killed; a new bridge (room0, its own bottle of R
# drinks) starts and syncs alone meanwhile; the broker back, empty: until every history holds
# every drink. Each bridge says a retained hello and the others answer it, whatever order they
# come back in; the figure is mostly the bridges' reconnection back-off (1 s doubling to 60 s).
kill -KILL "$broker"; wait "$broker" 2>/dev/null || true
start_bus 0
start_bridge 0
for _ in $(seq 1200); do [ "$(count "$work/b0/h.sqlite")" -ge "$records" ] && break; sleep 0.05; done
restarted=$(now)
/usr/sbin/mosquitto -c "$work/mosquitto.conf" &
broker=$!
all=$((total + records)); took=timeout
for _ in $(seq 2400); do
    ok=1
    for i in $(seq 0 "$bridges"); do [ "$(count "$work/b$i/h.sqlite")" = "$all" ] || ok=0; done
    [ $ok = 1 ] && { took="$(ms "$restarted" "$(now)") ms"; break; }
    sleep 0.05
done
echo "household: broker restarted without sessions while room0 synced alone: all $((bridges + 1)) histories hold all $all drinks $took after the broker came back (its reconnection back-off included)"

for i in $(seq 0 "$bridges"); do kill -TERM "$(cat "$work/b$i/pid")" 2>/dev/null || true; done
# Only the bridges: a bare `wait` would wait for the buses and simulators too, which never end.
for i in $(seq 0 "$bridges"); do wait "$(cat "$work/b$i/pid")" 2>/dev/null || true; done
