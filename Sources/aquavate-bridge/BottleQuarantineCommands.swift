// `aquavate-bridge bottle restore|discard`: what a person does with a quarantined record
// (docs/design.md 3.4), a record the bottle sent that cannot be a drink. Both act on the history
// at once; nothing is sent to the bottle, which marked the record synced when its chunk was
// acknowledged.

import ArgumentParser
import Daemon
import Foundation
import History
import Reminders
import Timekeeping

struct BottleRestoreCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "restore",
        abstract: "Restore a quarantined record as a drink, at a time you give.",
        discussion: """
            A record is quarantined when it cannot be a drink; `aquavate-bridge history \
            --quarantined` lists them with their numbers. One whose only fault is its time \
            (stamped 1970 after a wrong SET_TIME, or 2106 from erased flash) can be restored: \
            it becomes a drink at --at TIME, with its amount and level as the bottle sent them, \
            and counts from then on. Its own stamp is kept with it.

            TIME is a local date and time, YYYY-MM-DDTHH:MM in the configured time zone \
            (`timezone`), or an ISO 8601 instant with a zone (2026-11-20T09:30:00Z). It must lie \
            between 2020-01-01 and two days from now.

            A record wrong in its amount or level cannot be restored; discard it with \
            `bottle discard N`.
            """)

    @Argument(help: ArgumentHelp("The quarantined record's number (history --quarantined).", valueName: "N"))
    var id: Int64

    @Option(help: ArgumentHelp("When the drink was: local YYYY-MM-DDTHH:MM, or ISO 8601 with a zone.", valueName: "TIME"))
    var at: String

    @Flag(help: "Print the restored drink as a JSON `drink` event.")
    var json = false

    @OptionGroup var common: CommonOptions

    func run() throws {
        try reportingFailures("bottle restore") {
            let history = try common.openHistory(path: common.databasePath)
            let timeZone = try common.loadConfiguration(history: history, logger: common.makeLogger()).timeZone
            let instant = try Self.instant(at, timeZone: timeZone)
            guard let stamp = UInt32(exactly: instant.secondsSince1970.rounded(.down)) else {
                throw CommandFailure("--at \(at) is outside 2020-01-01 … two days from now")
            }
            let drink: StoredDrink
            do {
                drink = try history.drinks.restoreQuarantined(id: id, timestamp: stamp, at: SystemClock().now)
            } catch let refusal as QuarantineActionError {
                throw CommandFailure(refusal.description)
            }
            let event = BottleInfo.drinkEvent(drink)
            print(json ? event.jsonLine() : event.textLine(novelty: false, timeZone: timeZone) + "  (restored from quarantine #\(id))")
        }
    }

    /// `--at` as an instant: an ISO 8601 instant with a zone, else a local date-time.
    static func instant(_ text: String, timeZone: TimeZone) throws -> WallInstant {
        if let instant = ISO8601Text.parse(text) { return instant }
        do {
            return try LocalDateTime(parsing: text).instant(in: timeZone)
        } catch {
            throw CommandFailure("--at \(text): \(error.description), or an ISO 8601 instant with a zone")
        }
    }
}

struct BottleDiscardCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "discard",
        abstract: "Discard a quarantined record: it is no longer listed as waiting.",
        discussion: """
            The record stays in the database, marked discarded (`history --quarantined --all` \
            lists it); it was never counted and never will be.
            """)

    @Argument(help: ArgumentHelp("The quarantined record's number (history --quarantined).", valueName: "N"))
    var id: Int64

    @OptionGroup var common: CommonOptions

    func run() throws {
        try reportingFailures("bottle discard") {
            let history = try common.openHistory(path: common.databasePath)
            do {
                try history.drinks.discardQuarantined(id: id, at: SystemClock().now)
            } catch let refusal as QuarantineActionError {
                throw CommandFailure(refusal.description)
            }
            print("bottle discard: quarantined record #\(id) discarded")
        }
    }
}
