#!/usr/bin/env bash
# The whole test suite, one test target at a time.
#
# Why not a bare `swift test`: on a 2-core machine the ~700 tests of all targets in one process
# share a 2-thread test pool while many of them start dbus-daemons, mosquitto brokers, simulated
# bottles and real installs into a mount namespace; in that crush an occasional run hung or timed
# out. One target per process keeps each target's own parallelism and isolates them. A target
# that fails or hangs (time-out) is run once more and the first attempt's tail is printed, so a
# flaky failure is visible, never silently hidden; a target that fails twice fails the suite.
set -uo pipefail
cd "$(dirname "$0")/.."
swift build --build-tests || exit 1
# The Debian package that Tests/InstallTests/DebianPackageTests.swift installs: `make deb` (a
# release build, minutes the first time), built here because `swift test` locks .build.
deb_started=$SECONDS
if ! AQUAVATE_DEB=$(make deb | tail -1) || [ ! -f "$AQUAVATE_DEB" ]; then echo "make deb failed"; exit 1; fi
export AQUAVATE_DEB
echo "make deb: $AQUAVATE_DEB in $((SECONDS - deb_started)) s"
# The real Home Assistants of Tests/EndToEndTests/HomeAssistant: pinned versions from PyPI in cached
# virtual environments (minutes the first time), made here, before the per-target time limit runs.
ha_started=$SECONDS
ha_log=$(mktemp)
# Both ends of the supported range (Tests/EndToEndTests/HomeAssistant/HomeAssistant.swift).
if ! { bash scripts/home-assistant-env.sh 2025.1.4 && bash scripts/home-assistant-env.sh 2024.10.4; } > "$ha_log" 2>&1; then
    echo "scripts/home-assistant-env.sh failed; its last lines:"; tail -30 "$ha_log"; exit 1
fi
rm -f "$ha_log"
echo "Home Assistant environment: ready in $((SECONDS - ha_started)) s"
# The real-BlueZ test bed's VM image (Tests/InstallTests/RealBlueZTests.swift): Debian's kernel, a
# debootstrap root with BlueZ and Bumble (about 2 minutes the first time, then cached).
image_started=$SECONDS
image_log=$(mktemp)
if ! nice -n 10 bash scripts/real-bluez/image.sh > "$image_log" 2>&1; then
    echo "scripts/real-bluez/image.sh failed; its last lines:"; tail -30 "$image_log"; exit 1
fi
rm -f "$image_log"
echo "real-BlueZ image: ready in $((SECONDS - image_started)) s"
source scripts/test-targets.sh
passed=0 failed=0 retried=()

# A hung target: which tests started and never ended, and where every thread of the test
# process stands (gdb, when installed), so that a hang in CI can be diagnosed from its log.
report_hang() {
    local log=$1
    echo "--- tests started but not finished:"
    comm -23 <(sed -n 's/^◇ Test \(.*\) started\.$/\1/p' "$log" | sort) \
             <(sed -n 's/^\(✔\|✘\) Test \(.*\) \(passed\|failed\) after.*/\2/p' "$log" | sort) \
        | grep -v -e '^case passing' -e '^run$' | head -40
    local pid
    for pid in $(pgrep -f "aquavate-bridgePackageTests.xctest"); do
        if command -v gdb > /dev/null; then
            echo "--- threads of $pid:"
            timeout 60 gdb -p "$pid" -batch -ex "thread apply all bt 12" 2>/dev/null \
                | grep -E "^Thread|^#" | cut -c1-200 | head -300
        fi
    done
}
for target in "${targets[@]}"; do
    ok=false
    for attempt in 1 2; do
        log=$(mktemp)
        swift test --skip-build $(target_selection "$target") > "$log" 2>&1 &
        runner=$!
        deadline=$((SECONDS + 600))
        while kill -0 "$runner" 2>/dev/null && [ $SECONDS -lt $deadline ]; do sleep 1; done
        if kill -0 "$runner" 2>/dev/null; then
            echo "=== $target: still running after 600 s"
            report_hang "$log"
            pkill -9 -P "$runner" 2>/dev/null; kill -9 "$runner" 2>/dev/null
        fi
        wait "$runner" && ok=true
        grep -E "Test run with|Executed .* tests" "$log" | tail -1
        if $ok; then rm -f "$log"; break; fi
        echo "=== $target: attempt $attempt failed or timed out; its failures, then its last lines:"
        grep -E "recorded an issue|^✘ Test .* failed" "$log" | head -20
        echo "---"
        tail -25 "$log"
        rm -f "$log"
        # Leftovers of a killed attempt would disturb the next one.
        pkill -9 -f "dbus-daemon --config-file=/tmp" 2>/dev/null
        pkill -9 -f "mosquitto -c /tmp" 2>/dev/null
        # Only the tests' own simulators (on their private buses), not a soak or a demo running beside.
        pkill -9 -f "aquavate-sim --bus unix:path=/tmp/dbus-test-" 2>/dev/null
        retried+=("$target")
    done
    if $ok; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
done
[ ${#retried[@]} -gt 0 ] && echo "retried: ${retried[*]}"
echo "targets: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
