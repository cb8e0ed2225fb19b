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
        abstract: "Record a manual intake (`log vitamin-d`) or a drink the bottle did not measure (`log drink 250`).",
        usage: """
            aquavate-bridge log <type> [--at <TIME>] [--bottle <ADDRESS|SERIAL>]
            aquavate-bridge log drink <ML> [--at <TIME>] [--bottle <ADDRESS|SERIAL>]
            """,
        discussion: """
            log TYPE records an intake such as vitamin-d. A scheduled reminder for this intake \
            type is suppressed when the intake was logged in its window (docs/reminders.md 3). \
            The log is kept in the history database. (With the daemon running, prefer the MQTT \
            command `log TYPE` or a notification's Done button, which reach the running engine \
            directly.)

            log drink ML adds a drink of ML millilitres (1 to 5000) that the bottle did not \
            measure: a glass at school, a bottle left at home. It is stored in the history as a \
            manual drink, with a record id of this bridge's own (from 2147483648 up; no other \
            bridge of a household gives the same), and counts in the \
            day, the reminders and Home Assistant like the bottle's drinks; `history` and \
            `status --json` mark it "manual". It is never sent to the bottle. Delete it like any \
            drink, with `bottle delete ID`: nothing is sent to the bottle then either. \
            `status`, the page and the API count it at once; a daemon already running counts it \
            in its reminders and Home Assistant state when it next sees the history change (a \
            sync that brings drinks, a household member's drink) or the day turn; the page's own \
            form beside `run --http` tells it at once. Its household gets it within 10 s.

            --at gives when it was drunk or taken (default: now); a time in the future is \
            refused. Each bottle's person has their own day and reminders: --bottle names whose \
            it is, needed only where several bottles are adopted. A volume out of range, a time \
            that is not ISO 8601 or in the future, or an unknown bottle is refused with one line \
            on standard error, exit 2, and nothing is stored.

            EXAMPLES
              aquavate-bridge log vitamin-d
              aquavate-bridge log drink 250 --at 2026-11-20T10:30:00+01:00 --bottle AQ-0042
            """
    )

    @Argument(help: ArgumentHelp("The intake type, e.g. vitamin-d (letters, digits and dashes), or drink.",
                                 valueName: "type"))
    var type: String

    @Argument(help: ArgumentHelp("With drink: the millilitres drunk, 1 to 5000.", valueName: "ML"))
    var volume: String?

    @Option(help: ArgumentHelp("When it was taken (ISO 8601; default: now).", valueName: "TIME"))
    var at: String?

    @Option(help: ArgumentHelp("Whose intake: the bottle, by address or serial (needed only where several are adopted).",
                               valueName: "ADDRESS|SERIAL"))
    var bottle: String?

    @OptionGroup var common: CommonOptions

    func run() throws {
        if type == "drink" { return try logDrink() }
        if let volume {
            StandardError.writeLine("aquavate-bridge log: \(volume): only `log drink ML` takes a volume")
            throw ExitCode(2)
        }
        try reportingFailures("log") {
            let instant = try parseInstant(at, option: "--at") ?? SystemClock().now
            let history = try common.openHistory(path: common.databasePath)
            let logger = common.makeLogger()
            let configuration = try common.loadConfiguration(history: history, logger: logger)
            let person = try Self.person(bottle, history: history)
            let (settings, _) = (configuration.effective(for: person))
                .reminderSettings(bottleGoal: person?.goalML, personReachable: true, storedSchedules: StoredSchedules.tables(in: history.schedules))
            // The bottle's own reminders (`reminders@<key>`), as the daemon runs them; the most
            // recently seen bottle inherits a single-bottle history's state, as in the daemon.
            let latest = try history.bottles.all().filter { $0.address != nil }.max { ($0.lastSeen ?? .epoch) < ($1.lastSeen ?? .epoch) }
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
    /// `log drink ML`: checked, stored as a manual drink, and printed as the `drink` line
    /// `history` shows; a refusal is one line, exit 2, and stores nothing.
    private func logDrink() throws {
        func refuse(_ line: String) -> ExitCode {
            StandardError.writeLine("aquavate-bridge log drink: \(line)")
            return ExitCode(2)
        }
        guard let volume else { throw refuse("give the volume drunk in millilitres, e.g. `log drink 250`") }
        guard let amount = Int(volume) else { throw refuse("\(volume): not a volume in millilitres, e.g. 250") }
        let now = SystemClock().now
        let instant: WallInstant
        if let at {
            guard let parsed = ISO8601Text.parse(at) else {
                throw refuse("--at \(at): not an ISO 8601 time such as 2026-11-20T18:00:00Z")
            }
            instant = parsed
        } else {
            instant = now
        }
        try reportingFailures("log drink") {
            let history = try common.openHistory(path: common.databasePath)
            let configuration = try common.loadConfiguration(history: history, logger: common.makeLogger())
            let stored: StoredDrink
            do {
                stored = try BottleControl(history: history).addDrink(amountML: amount, at: instant, bottle: bottle, now: now)
            } catch let refusal as BottleRequestRefused {
                throw refuse(refusal.description)
            }
            print(BridgeEvent.drink(.init(stored.drink, isNew: true)).textLine(novelty: false, timeZone: configuration.timeZone))
        }
    }

    /// The bottle whose person took the intake: the one named, or the only one adopted; nil
    /// before any bottle (the one engine of every drink). Several without `--bottle`, or an
    /// unknown one: refused with one line, exit 2.
    static func person(_ name: String?, history: DrinkHistory) throws -> BottleRecord? {
        do {
            if name == nil, try history.bottles.all().isEmpty { return nil }
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
