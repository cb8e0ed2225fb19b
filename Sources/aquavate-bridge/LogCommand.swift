// `aquavate-bridge log TYPE`: record a manual intake (docs/reminders.md 3).

import ArgumentParser
import Foundation
import History
import Reminding
import Reports
import Timekeeping

struct LogCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "log",
        abstract: "Record a manual intake, e.g. `aquavate-bridge log vitamin-d`.",
        discussion: """
            A scheduled reminder for this intake type is suppressed when the intake was logged in \
            its window (docs/reminders.md 3). Water cannot be logged: the bottle measures it. The log \
            is kept in the history database. (With the daemon running, prefer the MQTT command \
            `log TYPE` or a notification's Done button, which reach the running engine directly.) \
            Each bottle's person has their own reminders: `--bottle` names whose intake it is \
            (needed only where several bottles are adopted; an unknown one is refused, exit 2).
            """
    )

    @Argument(help: "The intake type, e.g. vitamin-d (letters, digits and dashes).")
    var type: String

    @Option(help: ArgumentHelp("When it was taken (ISO 8601; default: now).", valueName: "TIME"))
    var at: String?

    @Option(help: ArgumentHelp("Whose intake: the bottle, by address or serial (needed only where several are adopted).",
                               valueName: "ADDRESS|SERIAL"))
    var bottle: String?

    @OptionGroup var common: CommonOptions

    func run() throws {
        try reportingFailures("log") {
            let instant = try parseInstant(at, option: "--at") ?? SystemClock().now
            let history = try common.openHistory(path: common.databasePath)
            let logger = common.makeLogger()
            let configuration = try common.loadConfiguration(history: history, logger: logger)
            let person = try Self.person(bottle, history: history)
            let (settings, _) = (configuration.effective(for: person))
                .reminderSettings(bottleGoal: person?.goalML, personReachable: true, storedSchedules: StoredSchedules.tables(in: history))
            // The bottle's own reminders (`reminders@<key>`), as the daemon runs them; the most
            // recently seen bottle inherits a single-bottle history's state, as in the daemon.
            let latest = try history.bottles().filter { $0.address != nil }.max { ($0.lastSeen ?? .epoch) < ($1.lastSeen ?? .epoch) }
            let runner = ReminderRunner(history: history, settings: settings, logger: logger, bottle: person?.id,
                                        inheritsLegacy: person != nil && person?.id == latest?.id) { _ in }
            runner.advance(to: instant)
            do {
                let normalized = try runner.logIntake(type: type, at: instant)
                print("logged \(normalized) at \(LocalTimeText.format(instant, in: configuration.timeZone))")
            } catch {
                throw CommandFailure("\(error)")
            }
        }
    }
}

extension LogCommand {
    /// The bottle whose person took the intake: the one named, or the only one adopted; nil
    /// before any bottle (the one engine of every drink). Several without `--bottle`, or an
    /// unknown one: refused with one line, exit 2.
    static func person(_ name: String?, history: DrinkHistory) throws -> BottleRecord? {
        do {
            if name == nil, try history.bottles().isEmpty { return nil }
            return try BottleControl(history: history).bottle(named: name)
        } catch let refusal as BottleRequestRefused {
            StandardError.writeLine("aquavate-bridge log: \(refusal.description)")
            throw ExitCode(2)
        }
    }
}

/// Parses an ISO 8601 option value, or fails with one line naming the option.
func parseInstant(_ text: String?, option: String) throws -> WallInstant? {
    guard let text else { return nil }
    guard let instant = ISO8601Text.parse(text) else {
        throw CommandFailure("\(option) \(text): not an ISO 8601 time such as 2026-11-20T18:00:00Z")
    }
    return instant
}
