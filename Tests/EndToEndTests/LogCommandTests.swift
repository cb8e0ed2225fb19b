// `aquavate-bridge log TYPE --bottle ADDRESS|SERIAL`: a manual intake is one person's, so it goes
// to that bottle's reminders (`reminders@<key>`), as the other commands' `--bottle` selects; an
// unknown bottle, or several adopted without `--bottle`, is refused with one line and exit 2.

import Foundation
import History
import TestFixtures
import Testing
import Timekeeping

@Suite struct LogCommandTests {
    static let first = BottleRecord(id: "F4:12:FA:00:A3:F2", serial: "F4:12:FA:00:A3:F2", address: "F4:12:FA:00:A3:F4", lastSeen: WallInstant(secondsSince1970: 1_764_000_000))
    static let second = BottleRecord(id: "F4:12:FA:00:B0:02", serial: "F4:12:FA:00:B0:02", address: "F4:12:FA:00:B0:04", lastSeen: WallInstant(secondsSince1970: 1_764_000_100))

    /// The folder lives as long as the suite value (each test has its own).
    let folder = TemporaryFolder()

    func database(_ bottles: [BottleRecord], name: String = "h") throws -> String {
        let path = folder.path + "/\(name).sqlite"
        let history = try DrinkHistory(path: path)
        for bottle in bottles { try history.bottles.save(bottle) }
        return path
    }

    @Test("with two bottles: --bottle (address or serial) picks whose intake; none or an unknown one is refused, exit 2, one line")
    func severalBottles() async throws {
        let db = try database([Self.first, Self.second])
        let unnamed = try await runBridge(["log", "vitamin-d", "--db", db])
        #expect(unnamed.status == 2 && unnamed.err.contains("name one with --bottle"), "\(unnamed)")
        let unknown = try await runBridge(["log", "vitamin-d", "--bottle", "AA:BB:CC:DD:EE:FF", "--db", db])
        #expect(unknown.status == 2 && unknown.err.contains("no bottle AA:BB:CC:DD:EE:FF"), "\(unknown)")
        for refused in [unnamed, unknown] {
            #expect(refused.err.split(separator: "\n").count == 1, "one line: \(refused.err)")
        }
        #expect(try DrinkHistory(path: db).reminders.personEvents().isEmpty, "nothing logged")

        let logged = try await runBridge(["log", "vitamin-d", "--bottle", "f4:12:fa:00:b0:04", "--at", "2026-11-22T07:30:00Z", "--db", db])
        #expect(logged.status == 0 && logged.out.contains("logged vitamin-d"), "\(logged)")
        let history = try DrinkHistory(path: db)
        #expect(try history.reminders.personEvents().map(\.name) == ["vitamin-d"])
        #expect(try history.reminders.saved(bottle: Self.second.id) != nil, "the second bottle's person's reminders took it")
        #expect(try history.reminders.saved(bottle: Self.first.id) == nil)
        #expect(try history.reminders.saved(bottle: SavedReminders.everyBottle) == nil)
        let bySerial = try await runBridge(["log", "zinc", "--bottle", Self.first.id, "--db", db])
        #expect(bySerial.status == 0, "\(bySerial)")
        #expect(try history.reminders.saved(bottle: Self.first.id) != nil)
    }

    @Test("with one bottle, --bottle is optional; before any bottle, the one engine takes it")
    func oneOrNoBottle() async throws {
        let one = try database([Self.first])
        let logged = try await runBridge(["log", "vitamin-d", "--db", one])
        #expect(logged.status == 0, "\(logged)")
        #expect(try DrinkHistory(path: one).reminders.saved(bottle: Self.first.id) != nil)

        let none = try database([], name: "none")
        let early = try await runBridge(["log", "vitamin-d", "--db", none])
        #expect(early.status == 0, "\(early)")
        #expect(try DrinkHistory(path: none).reminders.saved(bottle: SavedReminders.everyBottle) != nil)
    }
}
