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
# The suite's real counterparts that are made once and cached: the Home Assistants of
# Tests/EndToEndTests/HomeAssistant (the releases pinned in scripts/home-assistant-versions, each in
# a virtual environment; those that need a newer Python than the machine's in a Debian forky root)
# and the real-BlueZ test bed's VM images (Tests/InstallTests/RealBlueZTests.swift: Debian's kernel,
# a debootstrap root with BlueZ and Bumble; PackageUnderSystemdTests.swift: the same booted under
# systemd). Made the first time they wait mostly on the network
# (PyPI, Debian's mirror), so they are made in the background while the code builds, each into its
# own log, and waited for before the first test runs.
prepared=$(mktemp -d)
(
    while read -r role version _; do
        case "$role" in ''|'#'*) continue ;; esac
        started=$SECONDS
        bash scripts/home-assistant-env.sh "$version" > "$prepared/ha-$version.log" 2>&1 \
            || { echo "scripts/home-assistant-env.sh $version failed; its last lines:"; tail -30 "$prepared/ha-$version.log"; exit 1; }
        echo "Home Assistant $version ($role): ready in $((SECONDS - started)) s"
    done < scripts/home-assistant-versions
) > "$prepared/ha" 2>&1 &
ha_job=$!
# The two variants one after the other: both wait on the same mirror.
( for variant in plain systemd; do
      started=$SECONDS
      bash scripts/real-bluez/image.sh --variant $variant > "$prepared/image-$variant.log" 2>&1 \
          || { echo "scripts/real-bluez/image.sh --variant $variant failed; its last lines:"; tail -30 "$prepared/image-$variant.log"; exit 1; }
      echo "real-BlueZ image ($variant): ready in $((SECONDS - started)) s"
  done ) > "$prepared/image" 2>&1 &
image_job=$!
# Stops the background preparations when the build fails, so that nothing outlives this script.
stop_preparations() { kill -- $ha_job $image_job 2>/dev/null; pkill -P $ha_job 2>/dev/null; pkill -P $image_job 2>/dev/null; }
build_started=$SECONDS
swift build --build-tests || { stop_preparations; exit 1; }
echo "debug build in $((SECONDS - build_started)) s"
# The Debian package that Tests/InstallTests/DebianPackageTests.swift installs: `make deb` (a
# release build, minutes the first time), built here because `swift test` locks .build.
deb_started=$SECONDS
if ! AQUAVATE_DEB=$(make deb | tail -1) || [ ! -f "$AQUAVATE_DEB" ]; then echo "make deb failed"; stop_preparations; exit 1; fi
export AQUAVATE_DEB
echo "make deb: $AQUAVATE_DEB in $((SECONDS - deb_started)) s"
waited=$SECONDS
wait $ha_job; ha_status=$?
wait $image_job; image_status=$?
cat "$prepared/ha" "$prepared/image"
echo "waited $((SECONDS - waited)) s for them after the builds"
rm -rf "$prepared"
[ $ha_status -eq 0 ] && [ $image_status -eq 0 ] || exit 1
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
        limit=$(target_time_limit "$target")
        deadline=$((SECONDS + limit))
        while kill -0 "$runner" 2>/dev/null && [ $SECONDS -lt $deadline ]; do sleep 1; done
        if kill -0 "$runner" 2>/dev/null; then
            echo "=== $target: still running after $limit s"
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
