// Options every command accepts after its name (docs/design.md 3.2), and the shared start-up:
// logging, configuration layers, the history database.

import ArgumentParser
import Daemon
import Foundation
import History
import Logging
import Reports
import Settings

struct CommonOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Config file (TOML).", valueName: "FILE"))
    var config: String?

    @Option(name: .long, help: ArgumentHelp("History database.", valueName: "PATH"))
    var db: String?

    @Option(name: .customLong("set"), help: ArgumentHelp(
        "Override a setting for this run, e.g. --set timezone=Europe/Madrid (repeatable).", valueName: "KEY=VALUE"))
    var assignments: [String] = []

    @Flag(name: .shortAndLong, help: "Log debug details to standard error.")
    var verbose = false

    func makeLogger(label: String = "aquavate-bridge") -> Logger {
        let level: Logger.Level = verbose ? .debug : .info
        return Logger(label: label) { JournalLogHandler(label: $0, level: level) }
    }

    /// The database path: --db, else the XDG default.
    var databasePath: String { db ?? BridgePaths.defaultDatabase() }

    /// Loads the configuration file, the stored settings and the --set overrides, in that order.
    func loadConfiguration(history: DrinkHistory?, logger: Logger) throws -> Configuration {
        var configuration: Configuration
        do {
            configuration = try Configuration.load(file: config ?? BridgePaths.defaultConfigFile(), mustExist: config != nil)
        } catch {
            throw CommandFailure(error.description)
        }
        if let history {
            configuration.useStoredValues(try history.settings.all())
        }
        for assignment in assignments {
            do {
                try configuration.applyOverride(assignment)
            } catch {
                throw CommandFailure("--set \(Redaction.assignment(assignment)): \(error.description)")
            }
        }
        for warning in configuration.warnings {
            logger.warning("\(warning)")
        }
        return configuration
    }

    /// The PID of the daemon running on the history at `databasePath` (default: this command's),
    /// if one runs: a command then leaves the broker's connections under the daemon's logins
    /// to it (RunningBridge). The service's lock is looked at for the service's database.
    func runningBridge(databasePath: String? = nil) -> Int32? {
        let path = databasePath ?? self.databasePath
        return RunningBridge.pid(lockPaths: RunningBridge.lockPaths(
            environment: ProcessEnvironment.current, databasePath: path,
            extra: path == ServicePaths.database ? [ServicePaths.lock] : []), database: path)
    }

    /// Opens the history database at `path` (nil: in memory).
    func openHistory(path: String?, durability: Durability = .full) throws -> DrinkHistory {
        do {
            return try DrinkHistory(path: path, durability: durability)
        } catch {
            throw CommandFailure("\(error)")
        }
    }
}

/// An expected failure: printed as one line, exit status 1, no stack trace (docs/design.md 3.1).
struct CommandFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Runs a command body, turning expected failures into one line on standard error.
func reportingFailures(_ command: String, _ body: () throws -> Void) throws {
    do {
        try body()
    } catch let failure as CommandFailure {
        StandardError.writeLine("aquavate-bridge \(command): \(failure.description)")
        throw ExitCode.failure
    }
}
