# Sourced by the benchmarks that play BlueZ with the simulator: a scratch folder ($work, removed
# with every background job at exit), a private dbus-daemon that stands in for the system bus
# (DBUS_SYSTEM_BUS_ADDRESS; no session bus, no systemd notification), and, on request, the
# one-shot sync fixture: the simulator with ~1 ms BlueZ and radio delays serving the same 600
# records at every connection (`start_sync_fixture`, after $bin is set).
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT
dbus-daemon --session --nofork --print-address=1 --address="unix:path=$work/bus.sock" > "$work/addr" 2>/dev/null &
for _ in $(seq 50); do [ -s "$work/addr" ] && break; sleep 0.1; done
export DBUS_SYSTEM_BUS_ADDRESS=$(head -1 "$work/addr")
unset DBUS_SESSION_BUS_ADDRESS NOTIFY_SOCKET WATCHDOG_USEC

# No --state-file: the simulator would write its whole state as JSON at every ACK (~4 ms a chunk
# more for any client). Ready once it has said what it serves.
start_sync_fixture() {
    "$bin/aquavate-sim" --records 600 --instant --unsync-on-disconnect --quiet 2> "$work/sim.log" &
    for _ in $(seq 100); do grep -qs ' with 600 records at ' "$work/sim.log" && break; sleep 0.1; done
}
