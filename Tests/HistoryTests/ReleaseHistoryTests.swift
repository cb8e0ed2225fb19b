// A history written by a released bridge (Fixtures/release-history.sqlite, made by
// Fixtures/make-release-history.sh: two bridges of a household, three bottles, deletions, a manual
// drink, a queued command, settings, reminders, a quarantined record) opens with the current code,
// which upgrades it, and keeps every row: checked row by row against Fixtures/release-history.expected,
// which sqlite3 read from the file when it was made.

import AquavateProtocol
import Foundation
import GRDB
@testable import History
import Testing
import Timekeeping

/// The released history, copied to a scratch file (opening it upgrades it), and what it held.
struct ReleaseHistory {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

    /// The expected file's lines of `kind`, split at `|` (the kind itself dropped).
    let expected: [String: [[String]]]

    init() throws {
        let text = try String(contentsOf: Self.folder.appendingPathComponent("release-history.expected"), encoding: .utf8)
        var lines: [String: [[String]]] = [:]
        for line in text.split(separator: "\n") {
            // An engine's JSON document may hold `|`: split it off once.
            let fields = line.split(separator: "|", maxSplits: line.hasPrefix("engine|") ? 2 : .max, omittingEmptySubsequences: false).map(String.init)
            lines[fields[0], default: []].append(Array(fields.dropFirst()))
        }
        expected = lines
    }

    /// A fresh copy of the released file, opened with the current code.
    func open() throws -> (history: DrinkHistory, folder: String) {
        let folder = NSTemporaryDirectory() + "release-history-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let path = folder + "/h.sqlite"
        try FileManager.default.copyItem(atPath: Self.folder.appendingPathComponent("release-history.sqlite").path, toPath: path)
        return (try DrinkHistory(path: path), folder)
    }

    /// The engine documents the release saved, by name.
    var engineDocuments: [String: String] {
        Dictionary(uniqueKeysWithValues: (expected["engine"] ?? []).map { ($0[0], $0[1]) })
    }
}

@Suite("a history written by the released bridge opens and keeps everything")
struct ReleaseHistoryTests {
    let release: ReleaseHistory

    init() throws { release = try ReleaseHistory() }

    @Test("the fixture holds something of every kind the bridge keeps")
    func fixtureIsComplete() {
        for kind in ["drink", "bottle", "setting", "command", "delivered", "person", "quarantined", "engine"] {
            #expect(!(release.expected[kind] ?? []).isEmpty, "the fixture has no \(kind)")
        }
        let drinks = release.expected["drink"] ?? []
        #expect(drinks.contains { $0[6] == "1" }, "a deleted drink")
        #expect(drinks.contains { $0[7] == "1" }, "a manual drink")
        #expect(drinks.contains { $0[8] != "-" }, "a drink another bridge synced")
        #expect(Set(drinks.map { $0[0] }).count == 3, "three bottles' drinks")
    }

    @Test("every drink, drink by drink: bottle, id, stamp, volumes, kind, deletion, manual, origin")
    func drinks() throws {
        let (history, folder) = try release.open()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let stored = try history.storedDrinks(includeDeleted: true)
        let origins = try history.read("origins") { db in
            try Row.fetchAll(db, sql: "SELECT bottle, record_id, timestamp, ifnull(origin, '-') AS origin FROM drink")
                .reduce(into: [String: String]()) { $0["\($1["bottle"] as String)|\($1["record_id"] as Int64)|\($1["timestamp"] as Int64)"] = $1["origin"] }
        }
        let lines = stored.map { stored -> [String] in
            let drink = stored.drink
            return [drink.bottle, "\(drink.recordID)", "\(drink.timestamp)", "\(drink.amountML)", "\(drink.bottleLevelML)",
                    drink.kind.rawValue, drink.deleted ? "1" : "0", drink.manual ? "1" : "0",
                    origins["\(drink.bottle)|\(drink.recordID)|\(drink.timestamp)"] ?? "?"]
        }
        #expect(lines.sorted { $0.lexicographicallyPrecedes($1) } == (release.expected["drink"] ?? []).sorted { $0.lexicographicallyPrecedes($1) })
    }

    @Test("bottles, settings, the queued command, the delivered log, the person's events, the quarantine")
    func theRest() throws {
        let (history, folder) = try release.open()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(try history.bottles().map { [$0.id, $0.serial ?? "-", $0.address ?? "-", $0.goalML.map { "\($0)" } ?? "-"] }
                == release.expected["bottle"])
        #expect(try history.allSettings().sorted { $0.key < $1.key }.map { [$0.key, $0.value] } == release.expected["setting"])
        #expect(try history.commands().sorted { $0.id < $1.id }.map { [$0.bottle, $0.command, $0.argument ?? "-", $0.status.rawValue] }
                == release.expected["command"])
        #expect(try history.deliveredNotifications().map { [$0.id, $0.kind] } == release.expected["delivered"])
        #expect(try history.personEvents().map { [$0.kind.rawValue, $0.name] } == release.expected["person"])
        #expect(try history.quarantined(includeResolved: true).sorted { $0.id < $1.id }
                    .map { [$0.bottle, "\($0.record.recordID)", "\($0.record.timestamp)", $0.rawHex] } == release.expected["quarantined"])
        #expect(try history.householdDeliveries(since: .epoch).map { [$0.bottle, $0.id, $0.origin] }.sorted { $0.lexicographicallyPrecedes($1) }
                == (release.expected["household-delivered"] ?? []))
        #expect(try history.motionEvents().count == Int(release.expected["motion"]?.first?.first ?? "") )
    }

    @Test("the engines' saved state: the reminders of two bottles, the household's, the refused commands")
    func engineState() throws {
        let (history, folder) = try release.open()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let documents = release.engineDocuments
        #expect(documents.keys.filter { $0.hasPrefix("reminders@") }.count >= 2, "\(documents.keys.sorted())")
        for name in ["household-sender", "household-replay", "household-outbox", "mqtt-refused-commands"] {
            #expect(documents[name] != nil, "the release saved \(name)")
        }
        for (name, json) in documents {
            #expect(try history.engineState(named: name) == json, "\(name)")
        }
    }
}
