#!/usr/bin/env bash
# One bottle heard in several rooms, and a household at scale (docs/design.md 6), with real parts
# and no hardware: a mosquitto on loopback, a bridge per room, each with its own private bus and
# an `aquavate-sim --shared-bottle DIR` (the rooms' simulators are the same physical bottles: one
# drink store and one LE link each, so only one room's Connect succeeds at a time).
#
#   handover   two rooms, one bottle of 300 drinks (writes slowed to 30 ms so that a sync lasts
#              seconds): from the holder's link going down (its sync done and its claim
#              released) to the other room's link coming up; then from the holder's bridge
#              SIGKILLed mid-sync (its bottle leaving that room: DropLink) to the other's link.
#   scale      BRIDGES rooms × BOTTLES bottles (`--bottles`, each adopted by every bridge),
#              RECORDS drinks each: from the daemons' start until every history holds every
#              drink; the broker's PUBLISH packets per drink (drinks, and all household topics).
#
#   swift build --product aquavate-bridge && swift build --product aquavate-sim
#   Benchmarks/household-rooms.sh handover [BIN_DIR] [ROUNDS]                    # default .build/debug 3
#   Benchmarks/household-rooms.sh scale [BIN_DIR] [BRIDGES] [BOTTLES] [RECORDS]  # default .build/debug 5 10 20
set -euo pipefail
mode=${1:-handover}
bin=${2:-.build/debug}
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; sleep 0.5; [ -n "${KEEP:-}" ] && echo "kept $work" || rm -rf "$work"' EXIT
# The broker's configuration, now(), ms() and count().
source "$(dirname "$0")/lib/household-broker.sh"
cooldown=1
connected() { grep -q '"connected" : true' "$work/r$1/sim.json" 2>/dev/null; }
wait_for() {  # $1 = a command; polls it every 20 ms for at most 300 s
    for _ in $(seq 15000); do eval "$1" && return 0; sleep 0.02; done
    echo "timeout waiting for: $1" >&2; return 1
}

start_room() {  # $1 = index, $2… = simulator arguments: a dbus-daemon and a simulator of the shared bottle(s)
    local i=$1 dir="$work/r$1"; shift
    mkdir -p "$dir"
    dbus-daemon --session --nofork --print-address=1 --address="unix:path=$dir/bus.sock" > "$dir/addr" 2>/dev/null &
    for _ in $(seq 50); do [ -s "$dir/addr" ] && break; sleep 0.1; done
    DBUS_SYSTEM_BUS_ADDRESS=$(head -1 "$dir/addr") "$bin/aquavate-sim" --disconnect-delay 0.1 --connect-timeout 2 \
        --shared-bottle "$work/bottles" --state-file "$dir/sim.json" "$@" 2> "$dir/sim.log" &
    for _ in $(seq 100); do [ -s "$dir/sim.json" ] && break; sleep 0.1; done
}
start_bridge() {  # $1 = index
    local dir="$work/r$1"
    DBUS_SYSTEM_BUS_ADDRESS=$(head -1 "$dir/addr") XDG_RUNTIME_DIR="$dir" "$bin/aquavate-bridge" run --db "$dir/h.sqlite" \
        --cooldown "$cooldown" --failure-pause 1 --set "mqtt.url=mqtt://127.0.0.1:$port" --set "bridge.id=room$1" \
        --set desktop.enabled=false >> "$dir/run.log" 2>&1 &
    echo $! > "$dir/pid"
}
hook() {  # $1 = room, $2 = Simulator1 method, $3… = its arguments
    DBUS_SYSTEM_BUS_ADDRESS=$(head -1 "$work/r$1/addr") gdbus call --system -d org.bluez -o / -m "org.aquavate.Simulator1.$2" "${@:3}" > /dev/null
}

household_down() {  # every process of this round (the broker too), and its rooms
    kill $(jobs -p) 2>/dev/null || true
    wait 2>/dev/null || true
    rm -rf "$work"/r* "$work/bottles"
    : > "$work/mosquitto.log"
}

if [ "$mode" = handover ]; then
    # Each round starts afresh: two rooms, the bottle's 300 drinks in the first room's simulator,
    # the bridges with the default cool-down (60 s), so that the one that just synced does not
    # compete for the bottle again (with equal signals the smaller bridge id would win the tie).
    rounds=${3:-3}
    cooldown=60
    round_up() {
        /usr/sbin/mosquitto -c "$work/mosquitto.conf" &
        start_room 1 --records 300 --fault slow-writes=30
        start_room 2 --records 0 --fault slow-writes=30
        for i in 1 2; do start_bridge "$i"; done
        wait_for "connected 1 || connected 2"
        if connected 1; then holder=1 other=2; else holder=2 other=1; fi
    }
    for round in $(seq "$rounds"); do
        round_up
        wait_for "! connected $holder"
        down=$(now)
        wait_for "connected $other"
        echo "handover: round $round: room$holder synced and released the bottle; room$other linked $(ms "$down" "$(now)") ms later"
        household_down
    done
    for round in $(seq "$rounds"); do
        round_up
        kill -KILL "$(cat "$work/r$holder/pid")"
        killed=$(now)
        hook "$holder" DropLink  # bluetoothd keeps a dead client's link; the bottle leaves that room
        wait_for "connected $other"
        echo "handover: round $round: room$holder's bridge SIGKILLed mid-sync (and the bottle out of its room), room$other linked $(ms "$killed" "$(now)") ms later (the claim's expiry: 180 s)"
        household_down
    done
    exit 0
fi

/usr/sbin/mosquitto -c "$work/mosquitto.conf" &
bridges=${3:-5}
bottles=${4:-10}
records=${5:-20}
for i in $(seq "$bridges"); do
    if [ "$i" = 1 ]; then start_room "$i" --bottles "$bottles" --records "$records"; else start_room "$i" --bottles "$bottles" --records 0; fi
done
# Every bridge has adopted every bottle (as `run --adopt` once per bottle would leave it).
addresses=$(grep -o '(F4:[0-9A-F:]*) with' "$work/r1/sim.log" | tr -d '()' | cut -d' ' -f1)
for i in $(seq "$bridges"); do
    "$bin/aquavate-bridge" config list --db "$work/r$i/h.sqlite" > /dev/null
    for address in $addresses; do
        serial=$(python3 -c "import sys; v=int(sys.argv[1].replace(':',''),16)-2; print(':'.join(f'{(v>>s)&255:02X}' for s in range(40,-1,-8)))" "$address")
        sqlite3 "$work/r$i/h.sqlite" "INSERT INTO bottle (id, serial, address) VALUES ('$serial', '$serial', '$address')"
    done
done
total=$((bottles * records))
for i in $(seq "$bridges"); do start_bridge "$i"; done
started=$(now)
ok=0
for _ in $(seq 6000); do
    ok=1
    for i in $(seq "$bridges"); do [ "$(count "$work/r$i/h.sqlite")" = "$total" ] || { ok=0; break; }; done
    [ $ok = 1 ] && break
    sleep 0.1
done
took=$(ms "$started" "$(now)")
[ $ok = 1 ] || { echo "scale: timeout: $(for i in $(seq "$bridges"); do printf '%s ' "$(count "$work/r$i/h.sqlite")"; done)"; exit 1; }
links=$(cat "$work"/r*/sim.log | grep -c "event: linked to" || true)
aborted=$(cat "$work"/r*/run.log | grep -c "abort-by-local" || true)
echo "scale: $bridges bridges × $bottles bottles × $records drinks: every history holds all $total drinks $took ms after the daemons started ($links connections in all, $aborted log lines of a Connect that failed because another room held the bottle)"
drinks_in=$(grep -c "Received PUBLISH from aquavate-room.*household/drink" "$work/mosquitto.log" || true)
drinks_out=$(grep -c "Sending PUBLISH to aquavate-room.*household/drink" "$work/mosquitto.log" || true)
all_in=$(grep -c "Received PUBLISH from aquavate-room.*household/" "$work/mosquitto.log" || true)
all_out=$(grep -c "Sending PUBLISH to aquavate-room.*household/" "$work/mosquitto.log" || true)
echo "scale: broker traffic per drink: drinks $(echo "scale=2; $drinks_in / $total" | bc) in, $(echo "scale=2; $drinks_out / $total" | bc) out; all household topics (claims, syncer, hello included) $(echo "scale=2; $all_in / $total" | bc) in, $(echo "scale=2; $all_out / $total" | bc) out"
for i in $(seq "$bridges"); do
    dup=$(sqlite3 "$work/r$i/h.sqlite" "SELECT count(*) - count(DISTINCT bottle || '#' || record_id) FROM drink")
    [ "$dup" = 0 ] || echo "scale: room$i holds $dup drink(s) twice"
done
for i in $(seq "$bridges"); do kill -TERM "$(cat "$work/r$i/pid")" 2>/dev/null || true; done
household_down
