// aquavate-bridge: the command line (docs/design.md 3.1).

import ArgumentParser
import ProcessSupport

// Every command, subcommands included, names itself (`commandName:`): ArgumentParser builds the
// whole command tree at every start, and a command without a name gets its type's name through
// `String(describing:)`, whose first use for each type makes the Swift runtime scan all the
// binary's protocol conformances (about 2 M instructions each; 19 M for the ten that had none,
// 8 % of a whole one-shot sync, Benchmarks/once-timeline.sh and docs/performance.md).
@main
struct AquavateBridge: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "aquavate-bridge",
        abstract: "Bridge an Aquavate smart water bottle to the rest of your life.",
        discussion: """
            Syncs the bottle's drink records over Bluetooth LE (BlueZ), keeps the drink history \
            in a database, and replays recorded captures through the same decoder and history.

            Files: the config file is $XDG_CONFIG_HOME/aquavate/bridge.toml and the history \
            database $XDG_DATA_HOME/aquavate/history.sqlite unless --config / --db say otherwise.
            """,
        version: BridgeVersion.string,
        subcommands: [RunCommand.self, ScanCommand.self, DemoCommand.self, ReplayCommand.self, HistoryCommand.self,
                      StatusCommand.self, LogCommand.self, ScheduleCommand.self, NotifyCommand.self, ImportCommand.self,
                      ConfigCommand.self, DoctorCommand.self, SetupCommand.self, BottleCommand.self, ServeCommand.self,
                      HouseholdCommand.self]
    )

    /// Before anything runs: libdispatch's complaint about a thread priority this process may not
    /// take stays out of the journal (`DispatchPriorityComplaint`).
    static func main() async {
        DispatchPriorityComplaint.silenceWhenOutOfReach()
        await main(nil)
    }
}
