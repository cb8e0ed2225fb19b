// `aquavate-bridge status`: the bottle, today's progress and the reminders, at a glance.

import ArgumentParser
import Foundation
import History
import HostClock
import Reports
import Timekeeping

struct StatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show the bottle, the last sync, today's total, the pace and the reminders.",
        discussion: """
            Today's total is the bridge's own, over the local calendar day of the configured time \
            zone. `Reminders Today: 3/12` counts hydration reminders of the current reminder day \
            (from reminders.reset_hour) against the 12-per-day limit; with the limit switched off \
            (`config set reminders.daily_limit false`) it shows the count alone.

            Where several bottles are adopted, each is shown with its own reminders, goal and \
            owner (docs/design.md 6); --bottle shows one.
            """
    )

    @Flag(help: "One JSON object (event: status) per bottle.")
    var json = false

    @Option(help: ArgumentHelp("Only this bottle, by address or serial (default: every adopted bottle).", valueName: "ADDRESS|SERIAL"))
    var bottle: String?

    @Option(help: ArgumentHelp("Evaluate at this instant instead of now (ISO 8601, e.g. 2026-11-20T18:00:00Z).", valueName: "TIME"))
    var at: String?

    @OptionGroup var common: CommonOptions

    func run() throws {
        try reportingFailures("status") {
            let instant = try parseInstant(at, option: "--at") ?? SystemClock().now
            let history = try common.openHistory(path: common.databasePath)
            let configuration = try common.loadConfiguration(history: history, logger: common.makeLogger())
            // This machine's clock now, which decides SET_TIME; not said for another instant (--at).
            let clock = at == nil ? ClockTrust.evaluate(source: KernelClockSync(), drinks: history.drinks) : nil
            let reports: [StatusReport]
            if let bottle {
                let record = try BottleControl(history: history).bottle(named: bottle)
                reports = [try StatusReport.make(history: history, configuration: configuration, at: instant, clock: clock, bottle: record)]
            } else {
                reports = try StatusReport.makeEach(history: history, configuration: configuration, at: instant, clock: clock)
            }
            for (index, report) in reports.enumerated() {
                if json {
                    print(report.jsonLine())
                } else {
                    if index > 0 { print("") }
                    report.textLines().forEach { print($0) }
                }
            }
        }
    }
}
