# The test targets, one `swift test` process each; sourced by scripts/test.sh and scripts/tsan.sh.
#
# An entry is a target, or a target and a group of its suites: "EndToEndTests/Household" runs the
# suites whose names begin with Household, "EndToEndTests/-Household" all the others. Why split
# EndToEndTests: its household suites run bridges inside the test process on Swift's cooperative
# pool (two threads on two cores), and beside ~150 other tests that spawn daemons and simulators
# that pool starved long enough for a 10 s wait to run out; apart, each group keeps its own pool.
# The browser suites (a headless Chromium each, one at a time) are a group of their own too; a
# group may be a regular expression: "-(Household|Browser)" skips both.
targets=(LockingTests TimekeepingTests ArchitectureTests ProcessSupportTests AquavateProtocolTests AquavateCaptureTests HistoryTests RemindersTests
         IngestTests ReportsTests HostClockTests DaemonTests HouseholdTests
         "EndToEndTests/-(Household|Browser)" EndToEndTests/Household EndToEndTests/Browser
         DBusTests SinksTests BottleSimulatorTests BlueZTests BottleSessionTests InstallTests WebTests HomeAssistantTests)

# The `swift test` options that select an entry's tests.
target_selection() {
    local entry=$1 target=${1%%/*} group=${1#*/}
    if [ "$entry" = "$target" ]; then
        echo "--filter ^${target}\\."
    elif [ "${group#-}" != "$group" ]; then
        echo "--filter ^${target}\\. --skip ^${target}\\.${group#-}"
    else
        echo "--filter ^${target}\\.${group}"
    fi
}
