// `aquavate-bridge log TYPE`: record a manual intake (docs/reminders.md 3).

import ArgumentParser
import Bridge
import Foundation
import Timekeeping

struct LogCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "log",
        abstract: "Record a manual intake, e.g. `aquavate-bridge log vitamin-d`.",
        discussion: """
            A scheduled reminder for this intake type is suppressed when the intake was logged in \
            its window (docs/reminders.md 3). Water cannot be logged: the bottle measures it. The log \
            is kept in the history database. (With the daemon running, prefer the MQTT command \
            `log TYPE` or a notification's Done button, which reach the running engine directly.)
            """
    )

    @Argument(help: "The intake type, e.g. vitamin-d (letters, digits and dashes).")
    var type: String

    @Option(help: ArgumentHelp("When it was taken (ISO 8601; default: now).", valueName: "TIME"))
    var at: String?

    @OptionGroup var common: CommonOptions

    func run() throws {
        try reportingFailures("log") {
            let instant = try parseInstant(at, option: "--at") ?? SystemClock().now
            let history = try common.openHistory(path: common.databasePath)
            let logger = common.makeLogger()
            let configuration = try common.loadConfiguration(history: history, logger: logger)
            let (settings, _) = configuration.reminderSettings(personReachable: true, storedSchedules: StoredSchedules.tables(in: history))
            let runner = ReminderRunner(history: history, settings: settings, logger: logger) { _ in }
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

/// Parses an ISO 8601 option value, or fails with one line naming the option.
func parseInstant(_ text: String?, option: String) throws -> Double? {
    guard let text else { return nil }
    guard let instant = ISO8601Text.parse(text) else {
        throw CommandFailure("\(option) \(text): not an ISO 8601 time such as 2026-11-20T18:00:00Z")
    }
    return instant
}
