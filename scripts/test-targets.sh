# The test targets, one `swift test` process each; sourced by scripts/test.sh and scripts/tsan.sh.
#
# An entry is a target, or a target and a group of its suites: "EndToEndTests/Household" runs the
# suites whose names begin with Household, "EndToEndTests/-" the suites of no other group of that
# target. Why split EndToEndTests: its household suites run bridges inside the test process on
# Swift's cooperative pool (two threads on two cores), and beside ~150 other tests that spawn
# daemons and simulators that pool starved long enough for a 10 s wait to run out; apart, each
# group keeps its own pool. The real Home Assistant (HomeAssistantTests, .serialized, minutes) runs
# apart so that its time limit is its own. The browser suites (a headless Chromium each, one at a
# time) are a group of their own too, and so are InstallTests' real-BlueZ test bed (one QEMU boot of
# several minutes under an emulated CPU, scripts/real-bluez) and the Debian package on that test bed
# booted under systemd (another boot, scripts/real-bluez/package.sh).
targets=(LockingTests TimekeepingTests ArchitectureTests ProcessSupportTests AquavateProtocolTests AquavateCaptureTests HistoryTests RemindersTests
         SettingsTests RemindingTests IngestTests ReportsTests HostClockTests DaemonTests WireTextTests MQTTTests HouseholdTests DeliveryTests DiagnosticsTests
         EndToEndTests/- EndToEndTests/Household EndToEndTests/HomeAssistantTests EndToEndTests/Browser
         DBusTests SinksTests BottleSimulatorTests BlueZTests BottleSessionTests InstallTests/- InstallTests/RealBlueZ InstallTests/PackageUnderSystemd WebTests)

# How long an entry may run (seconds) before it counts as hung: the real Home Assistants run one
# after another, a new install each (every release and form of scripts/home-assistant-versions, the
# long checks of the newest), so that entry has longer, and so has the package under systemd.
target_time_limit() {
    case $1 in
        EndToEndTests/HomeAssistantTests) echo 1800 ;;
        # Four `apt install`s, a remove and a purge under an emulated CPU: 10 minutes on a loaded machine.
        InstallTests/PackageUnderSystemd) echo 1000 ;;
        *) echo 600 ;;
    esac
}

# The `swift test` options that select an entry's tests.
target_selection() {
    local entry=$1 target=${1%%/*} group=${1#*/} other
    if [ "$entry" = "$target" ]; then
        echo "--filter ^${target}\\."
    elif [ "$group" = "-" ]; then
        local selection="--filter ^${target}\\."
        for other in "${targets[@]}"; do
            if [ "${other%%/*}" = "$target" ] && [ "$other" != "$target" ] && [ "$other" != "$entry" ]; then
                selection+=" --skip ^${target}\\.${other#*/}"
            fi
        done
        echo "$selection"
    else
        echo "--filter ^${target}\\.${group}"
    fi
}
