#!/usr/bin/env bash
# Makes release-history.sqlite: a history written by a released bridge, with something in every
# table, that HistoryTests' ReleaseHistoryTests opens with the current code and checks row by row
# against release-history.expected (what sqlite3 read from the file right after it was made).
#
# With real parts and no hardware: a mosquitto on loopback and two `aquavate-bridge run` daemons of
# one household (a shared household.key), each with its own private bus and `aquavate-sim`:
#   * the kitchen hears two bottles (reminder engine state for each), the first of which sends an
#     odd record (quarantined) among its drinks;
#   * the office has one bottle of its own; each bridge stores the other's drinks (origin);
#   * on the kitchen: a drink deleted through the bottle, a manual drink (`log drink`), an intake
#     (`log vitamin-d`), a command refused on the MQTT command topic; then, daemons stopped, a goal
#     queued for the bottle (a pending command), a changed setting, a test notification (delivered).
#
#   swift build --product aquavate-bridge && swift build --product aquavate-sim
#   Tests/HistoryTests/Fixtures/make-release-history.sh [BIN_DIR]          # default .build/debug
#
# The file is written by the bridge of the checkout it is run in: run it on the release whose
# history later versions must keep opening, and commit the two files it writes beside itself.
set -euo pipefail
bin=$(cd "${1:-.build/debug}" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; sleep 0.5; rm -rf "$work"' EXIT
port=$((20000 + RANDOM % 10000))
cat > "$work/mosquitto.conf" <<CONF
listener $port 127.0.0.1
allow_anonymous true
persistence false
CONF
[ "$(id -u)" = 0 ] && echo "user root" >> "$work/mosquitto.conf"
/usr/sbin/mosquitto -c "$work/mosquitto.conf" 2> "$work/mosquitto.log" &
key="AQIDBAUGBwgJCgsMDQ4PEBESExQVFhcYGRobHB0eHyA="

start_bus() {  # $1 = room, then the simulator's options
    local room=$1 dir="$work/$1"; shift
    mkdir -p "$dir"
    dbus-daemon --session --nofork --print-address=1 --address="unix:path=$dir/bus.sock" > "$dir/addr" 2>/dev/null &
    for _ in $(seq 50); do [ -s "$dir/addr" ] && break; sleep 0.1; done
    DBUS_SYSTEM_BUS_ADDRESS=$(head -1 "$dir/addr") "$bin/aquavate-sim" --disconnect-delay 0.1 \
        --state-file "$dir/state.json" "$@" 2> "$dir/sim.log" &
    for _ in $(seq 50); do [ -s "$dir/state.json" ] && break; sleep 0.1; done
}
bridge() {  # $1 = room, then the bridge's arguments (on the room's bus and history)
    local room=$1; shift
    DBUS_SYSTEM_BUS_ADDRESS=$(head -1 "$work/$room/addr") XDG_RUNTIME_DIR="$work/$room" "$bin/aquavate-bridge" "$@" --db "$work/$room/h.sqlite"
}
start_bridge() {  # $1 = room, then more options of `run`; the daemon's pid in ROOM/pid
    local room=$1; shift
    DBUS_SYSTEM_BUS_ADDRESS=$(head -1 "$work/$room/addr") XDG_RUNTIME_DIR="$work/$room" "$bin/aquavate-bridge" run \
        --db "$work/$room/h.sqlite" "$@" --cooldown 1 --set "mqtt.url=mqtt://127.0.0.1:$port" --set "bridge.id=$room" \
        --set desktop.enabled=false --set timezone=UTC --set "household.key=$key" >> "$work/$room/run.log" 2>&1 &
    echo $! > "$work/$room/pid"
}
stop_bridge() { kill -TERM "$(cat "$work/$1/pid")"; wait "$(cat "$work/$1/pid")" 2>/dev/null || true; }
publish() {  # $1 = topic, $2 = payload: one MQTT 3.1.1 PUBLISH at QoS 0, as a stranger on the broker
    python3 - "$port" "$1" "$2" <<'PY'
import socket, sys
def field(b): return len(b).to_bytes(2, "big") + b
def packet(kind, body):
    n, length = len(body), b""
    while True:
        n, digit = n // 128, n % 128
        length += bytes([digit | (128 if n else 0)])
        if not n: return bytes([kind]) + length + body
port, topic, payload = int(sys.argv[1]), sys.argv[2].encode(), sys.argv[3].encode()
with socket.create_connection(("127.0.0.1", port)) as s:
    s.sendall(packet(0x10, field(b"MQTT") + bytes([4, 2, 0, 30]) + field(b"fixture-stranger")))
    s.recv(4)
    s.sendall(packet(0x30, field(topic) + payload) + packet(0xE0, b""))
PY
}
q() { sqlite3 "$work/$1/h.sqlite" "$2" 2>/dev/null || true; }
wait_for() {  # $1 = what, $2 = a shell condition; 120 s at most
    for _ in $(seq 1200); do eval "$2" && return 0; sleep 0.1; done
    echo "timed out waiting for $1" >&2
    tail -30 "$work"/*/run.log >&2
    exit 1
}

start_bus kitchen --bottles 2 --records 10 --address F4:12:FA:00:C1:01 --fault mtu=100 --fault odd-record=2000
start_bus office --records 6 --address F4:12:FA:00:C2:02
# The kitchen's person has rituals (pending notifications with actions in the reminders' state).
bridge kitchen config set rituals.enabled true > /dev/null
start_bridge kitchen
start_bridge office
# The kitchen adopts the first bottle it sees; started again with --adopt, the second as well.
wait_for "the kitchen to sync its first bottle" '[ "$(q kitchen "SELECT count(*) FROM drink WHERE origin IS NULL")" = 10 ]'
stop_bridge kitchen
start_bridge kitchen --adopt
# 10 ordinary drinks of each of the kitchen's bottles (the first sends an odd one besides), 6 of the office's: every history holds 26.
wait_for "both histories to hold every drink" \
    '[ "$(q kitchen "SELECT count(*) FROM drink")" = 26 ] && [ "$(q office "SELECT count(*) FROM drink")" = 26 ]'
first=$(q kitchen "SELECT bottle FROM quarantined_record LIMIT 1")
bridge kitchen bottle delete 3 --bottle "$first" > /dev/null
wait_for "the office to hold the deletion" '[ "$(q office "SELECT deleted FROM drink WHERE bottle = '"'$first'"' AND record_id = 3")" = 1 ]'
bridge kitchen log drink 250 --bottle "$first" > /dev/null
bridge kitchen log vitamin-d --bottle "$first" > /dev/null
wait_for "the office to hold the manual drink" '[ "$(q office "SELECT count(*) FROM drink WHERE manual = 1")" = 1 ]'
# A command the kitchen refuses (a malformed one), counted in its history.
publish "aquavate/$(q kitchen "SELECT lower(replace(address, ':', '')) FROM bottle WHERE id = '$first'")/command" 'not a command'
wait_for "the kitchen to count the refused command" '[ "$(q kitchen "SELECT count(*) FROM engine_state WHERE name = '"'mqtt-refused-commands'"'")" = 1 ]'
# A household message without the household's seal (a stranger's), dropped and counted.
publish "aquavate/household/alive/ghost" 'online'
wait_for "the kitchen to count the dropped message" '[ "$(q kitchen "SELECT count(*) FROM engine_state WHERE name = '"'household-dropped'"'")" = 1 ]'
# Both bridges' household replay stamps and reminder states are saved as they change; the
# stop saves the rest.
stop_bridge office
stop_bridge kitchen
bridge kitchen bottle goal 2500 --bottle "$first" > /dev/null
bridge kitchen config set reminders.active_start 07:30 > /dev/null
bridge kitchen notify test --wait 1 > /dev/null || true

for room in kitchen office; do
    echo "$room:"
    for table in drink bottle setting engine_state delivered_notification person_event bottle_command motion_event \
                 backpack_session household_delivered quarantined_record; do
        echo "  $table $(q $room "SELECT count(*) FROM $table")"
    done
    q $room "SELECT name FROM engine_state ORDER BY name" | sed 's/^/    /'
done
sqlite3 "$work/kitchen/h.sqlite" "VACUUM INTO '$here/release-history.sqlite'"
"$here/release-history-expected.sh" "$here/release-history.sqlite" > "$here/release-history.expected"
ls -l "$here/release-history.sqlite"
