#!/usr/bin/env bash
# Where the time of a one-shot sync goes: `run --once` of 600 records against the simulator with
# ~1 ms BlueZ and radio delays (as Benchmarks/vs-bleak.sh), on a fresh database, traced with
# strace's seccomp filter (only the traced calls stop the process: execve, openat, connect,
# sendmsg, fdatasync, exit_group), and cut into phases at the calls that begin them:
#   start            exec → the database file is opened (loading, runtime, argument parsing, lock)
#   database         → the first bus connection (open, WAL, migrations, configuration, sinks)
#   bluez            → SetDiscoveryFilter (Hello, match rules, GetManagedObjects, adapter)
#                      Since BlueZHeadStart (run reads BlueZ's objects while the history opens)
#                      the first bus connection comes right after the history's file is opened:
#                      "database" is then only that, and "bluez" holds the rest of the history's
#                      set-up with BlueZ's beside it.
#   discovery        → Connect (StartDiscovery until the bottle is heard, StopDiscovery)
#   connect          → the first StartNotify (Connect, services resolved, the GATT connection)
#   set-up           → the START write (subscriptions, Device Information, state, config, settings,
#                      Sync Control; SET_TIME when the clock is trusted)
#   chunks           → the read of Sync Control after the last ACK (36 × notification, commit, fsync, ACK)
#   after            → Disconnect (unsynced count, activity statistics, reminders)
#   disconnect+exit  → exit_group (Disconnect, closing the history: its checkpoint, exit)
# strace slows each traced call a little: the phases are for comparing with each other; the whole
# process is timed untraced by vs-bleak.sh.
#
#   Benchmarks/once-timeline.sh [BIN_DIR [RUNS]]        # default .build-bench/release 3
set -euo pipefail
bin=${1:-.build-bench/release}
runs=${2:-3}
# $work, a private bus (lib/private-bus.sh says what it sets up).
source "$(dirname "$0")/lib/private-bus.sh"
start_sync_fixture
"$bin/aquavate-bridge" run --once --db "$work/warm.sqlite" > /dev/null 2>&1
for run in $(seq "$runs"); do
    rm -f "$work"/h.sqlite*
    strace -f --seccomp-bpf -ttt -s 300 -e trace=execve,openat,connect,sendmsg,fdatasync,exit_group \
        -o "$work/trace" "$bin/aquavate-bridge" run --once --db "$work/h.sqlite" > /dev/null 2>&1
    /usr/bin/python3 - "$work/trace" "$run" <<'EOF'
import re, sys
events = []
for line in open(sys.argv[1]):
    fields = line.split(None, 2)
    if len(fields) < 3 or fields[2].startswith('<...'):
        continue
    time, call = float(fields[1]), fields[2]
    member = re.search(r'(SetDiscoveryFilter|StartDiscovery|StopDiscovery|Connect|Disconnect|StartNotify|ReadValue|WriteValue)\\0', call)
    if call.startswith('execve'): events.append((time, 'exec'))
    elif call.startswith('openat') and re.search(r'/h\.sqlite"', call): events.append((time, 'db'))
    elif call.startswith('connect('): events.append((time, 'connect'))
    elif call.startswith('fdatasync'): events.append((time, 'fsync'))
    elif call.startswith('exit_group'): events.append((time, 'exit'))
    elif call.startswith('sendmsg') and member: events.append((time, member.group(1)))
def first(name, after=0.0):
    return next(t for t, e in events if e == name and t >= after)
start = first('exec')
db = first('db')
bus = first('connect', db)
discovery = first('SetDiscoveryFilter', bus)
connect = first('Connect', discovery)
notify = first('StartNotify', connect)
writes = [t for t, e in events if e == 'WriteValue' and t >= notify]
chunk_start = writes[0]
after_read = first('ReadValue', chunk_start)
disconnect = first('Disconnect', after_read)
end = first('exit', disconnect)
fsyncs = sum(1 for _, e in events if e == 'fsync')
phases = [('start', start, db), ('database', db, bus), ('bluez', bus, discovery), ('discovery', discovery, connect),
          ('connect', connect, notify), ('set-up', notify, chunk_start), ('chunks', chunk_start, after_read),
          ('after', after_read, disconnect), ('disconnect+exit', disconnect, end)]
print(f"run {sys.argv[2]}: " + ", ".join(f"{name} {1000 * (b - a):.1f}" for name, a, b in phases)
      + f" ms; total {1000 * (end - start):.1f} ms; {fsyncs} fsyncs")
EOF
done
