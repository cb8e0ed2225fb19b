#!/usr/bin/env bash
# Where the idle daemon's once-a-second wake-up comes from (docs/design.md 5: no wake-ups more often
# than the minute tick). Three 12-second Swift programs, counted over 10 s (voluntary context
# switches of all their threads):
#   serial-sync   a private serial DispatchQueue used with sync only, then sleep(12);
#   global-async  one block on DispatchQueue.global(), then sleep(12);
#   task-sleep    an async main that awaits Task.sleep (Swift concurrency's default executor).
# libdispatch's internal workqueue (Linux) starts a 1 s timer on its manager thread the first time
# anything is queued on a root queue (_dispatch_workq_init_once → _dispatch_workq_monitor_pools),
# and never stops it.
#
#   Benchmarks/dispatch-wakeups.sh
set -euo pipefail
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat > "$work/serial-sync.swift" <<'EOF'
import Dispatch
import Glibc
DispatchQueue(label: "serial").sync { _ = 1 }
sleep(12)
EOF
cat > "$work/global-async.swift" <<'EOF'
import Dispatch
import Glibc
DispatchQueue.global().async { _ = 1 }
sleep(12)
EOF
cat > "$work/task-sleep.swift" <<'EOF'
@main struct TaskSleep { static func main() async throws { try await Task.sleep(for: .seconds(12)) } }
EOF
swiftc -O "$work/serial-sync.swift" -o "$work/serial-sync"
swiftc -O "$work/global-async.swift" -o "$work/global-async"
swiftc -O -parse-as-library "$work/task-sleep.swift" -o "$work/task-sleep"
switches() { cat /proc/"$1"/task/*/status | awk '/^voluntary_ctxt_switches/ {s += $2} END {print s}'; }
for program in serial-sync global-async task-sleep; do
    "$work/$program" &
    pid=$!
    sleep 1.5
    before=$(switches $pid)
    sleep 10
    after=$(switches $pid)
    echo "$program: $(ls /proc/$pid/task | wc -l) thread(s), $((after - before)) wake-ups in 10 s"
    wait $pid
done
