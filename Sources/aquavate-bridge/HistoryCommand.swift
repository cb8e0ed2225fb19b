// `aquavate-bridge history`: the stored drinks and the local day totals.

import ArgumentParser
import Foundation
import History
import Reports
import Timekeeping
import Web

struct HistoryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "Show the stored drinks and the day totals.",
        discussion: """
            Day totals are computed by the bridge from its own history, per local calendar day \
            of the configured time zone (`timezone`, default: the system's), counting drinks \
            that are not deleted. The bottle's own daily total uses UTC days and is not used.

            Without --days every stored day is shown. Deleted drinks are listed with \
            "deleted": true and never counted.

            Where the history holds several bottles, each day is told per bottle (its key in \
            the `bottle` field) against that bottle's goal; --bottle shows one.

            With --chart FILE.svg it writes the day totals as a bar chart with the goal line \
            instead (the chart of the web dashboard, see `serve`): the last --days N days, 30 \
            when --days is not given, every bottle summed, in the language of messages.locale.
            """
    )

    @Option(help: ArgumentHelp("Only the last N local days, today included.", valueName: "N"))
    var days: Int?

    @Option(help: ArgumentHelp("Only this bottle, by address or serial (default: every bottle).", valueName: "ADDRESS|SERIAL"))
    var bottle: String?

    @Flag(help: "One JSON object per line: drink events, then day events.")
    var json = false

    @Flag(help: "CSV with a header row: drink rows, then day rows.")
    var csv = false

    @Option(help: ArgumentHelp("Write the day totals as an SVG bar chart to FILE instead of listing them.", valueName: "FILE.svg"))
    var chart: String?

    @Flag(help: "List the quarantined records (records that cannot be drinks) instead of the drinks.")
    var quarantined = false

    @Flag(help: "With --quarantined: also those already restored or discarded.")
    var all = false

    @OptionGroup var common: CommonOptions

    func validate() throws {
        if chart != nil && (json || csv) { throw ValidationError("--chart writes a picture: leave out --json and --csv") }
        if let days, days > 3660 { throw ValidationError("--days must be at most 3660") }
        if json && csv { throw ValidationError("choose one of --json and --csv") }
        if let days, days < 1 { throw ValidationError("--days must be 1 or more") }
        if quarantined && (chart != nil || csv || days != nil) { throw ValidationError("--quarantined lists every quarantined record: leave out --chart, --csv and --days") }
        if all && !quarantined { throw ValidationError("--all goes with --quarantined") }
    }

    func run() throws {
        try reportingFailures("history") {
            let logger = common.makeLogger()
            guard FileManager.default.fileExists(atPath: common.databasePath) else {
                throw CommandFailure("no history database at \(common.databasePath); sync a bottle or `replay --db \(common.databasePath) FILE` first")
            }
            let history = try common.openHistory(path: common.databasePath)
            let configuration = try common.loadConfiguration(history: history, logger: logger)
            if let chart {
                let svg = try ChartFile.svg(history: history, configuration: configuration, days: days ?? 30, now: SystemClock().now)
                do {
                    try svg.write(toFile: chart, atomically: true, encoding: .utf8)
                } catch {
                    throw CommandFailure("cannot write \(chart): \(error.localizedDescription)")
                }
                print("history: wrote the last \(days ?? 30) days to \(chart)")
                return
            }
            // A bottle this bridge adopted, or one whose drinks came from another bridge of the household.
            let record = try bottle.map { name -> BottleRecord in
                if let known = try history.bottles.bottle(named: name) { return known }
                if let key = try history.drinks.drinkBottles().first(where: { $0.uppercased() == name.uppercased() }) { return BottleRecord(id: key) }
                throw CommandFailure("no bottle \(name) in this history: `aquavate-bridge history --json` shows each drink's bottle")
            }
            if quarantined {
                let entries = try history.drinks.quarantined(bottle: record?.id, includeResolved: all).map(\.event)
                if entries.isEmpty && !json { print("history: no quarantined records") }
                for entry in entries {
                    print(json ? BridgeEvent.quarantined(entry).jsonLine()
                               : BridgeEvent.quarantined(entry).textLine(timeZone: configuration.timeZone))
                }
                return
            }
            let report = try HistoryReport.make(history: history, configuration: configuration,
                                                 days: days, now: SystemClock().now, bottle: record)
            let format: HistoryReport.Format = json ? .json : (csv ? .csv : .text)
            for line in report.lines(format: format) {
                print(line)
            }
        }
    }
}
