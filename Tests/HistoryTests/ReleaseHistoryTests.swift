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
        let stored = try history.drinks.storedDrinks(includeDeleted: true)
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
        #expect(try history.bottles.all().map { [$0.id, $0.serial ?? "-", $0.address ?? "-", $0.goalML.map { "\($0)" } ?? "-"] }
                == release.expected["bottle"])
        #expect(try history.settings.all().sorted { $0.key < $1.key }.map { [$0.key, $0.value] } == release.expected["setting"])
        #expect(try history.commands.all().sorted { $0.id < $1.id }.map { [$0.bottle, $0.command, $0.argument ?? "-", $0.status.rawValue] }
                == release.expected["command"])
        #expect(try history.reminders.delivered().map { [$0.id, $0.kind] } == release.expected["delivered"])
        #expect(try history.reminders.personEvents().map { [$0.kind.rawValue, $0.name] } == release.expected["person"])
        #expect(try history.drinks.quarantined(includeResolved: true).sorted { $0.id < $1.id }
                    .map { [$0.bottle, "\($0.record.recordID)", "\($0.record.timestamp)", $0.rawHex] } == release.expected["quarantined"])
        #expect(try history.household.deliveries(since: .epoch).map { [$0.bottle, $0.id, $0.origin] }.sorted { $0.lexicographicallyPrecedes($1) }
                == (release.expected["household-delivered"] ?? []))
        #expect(try history.bottles.motionEvents().count == Int(release.expected["motion"]?.first?.first ?? "") )
    }

    @Test("the engines' saved state moved into typed tables: the reminders of every bottle and of two, the household's, the refused commands")
    func engineState() throws {
        let (history, folder) = try release.open()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let documents = release.engineDocuments
        func object(_ name: String) throws -> [String: Any] {
            let json = try #require(documents[name], "\(name)")
            return try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any], "\(name)")
        }
        // The reminders, field by field (RemindingTests checks that the engine restores the same state).
        let reminderNames = documents.keys.filter { $0 == "reminders" || $0.hasPrefix("reminders@") }
        #expect(reminderNames.count == 3, "\(documents.keys.sorted())")
        for name in reminderNames {
            let bottle = name == "reminders" ? SavedReminders.everyBottle : String(name.dropFirst("reminders@".count))
            let saved = try #require(try history.reminders.saved(bottle: bottle), "\(name)")
            let document = try object(name)
            #expect(saved.counters.remindersSentToday == document["reminders_sent_today"] as? Int)
            #expect(saved.counters.lastUrgency == document["last_urgency"] as? String)
            #expect(saved.counters.rulesDay?.description == document["rules_day"] as? String)
            #expect(saved.counters.reminderDay?.description == document["reminder_day"] as? String)
            let pending = document["pending"] as? [[String: Any]] ?? []
            #expect(saved.pending.map(\.id) == pending.map { $0["id"] as? String ?? "" })
            #expect(saved.pending.map(\.fireTime.secondsSince1970) == pending.map { ($0["fire_time"] as? NSNumber)?.doubleValue ?? 0 })
            #expect(saved.actions.map(\.actionId) == pending.flatMap { ($0["actions"] as? [[String: Any]] ?? []).map { $0["id"] as? String ?? "" } })
            #expect(saved.intakes.map(\.type) == (document["intake_log"] as? [[String: Any]] ?? []).map { $0["type"] as? String ?? "" })
        }
        #expect(try history.reminders.saved(bottle: "F4:12:FA:00:C0:FF")?.pending.count == 14, "the rituals of a week, with their actions")
        // The household.
        #expect(try history.household.boot() == (try object("household-sender"))["boot"] as? UInt64)
        #expect(try history.household.drops() == (try object("household-dropped"))["dropped"] as? [String: Int])
        let replay = try object("household-replay")
        let marks = try history.household.replay()
        #expect(marks.judged == replay["judged"] as? [String])
        let savedMarks = replay["marks"] as? [String: [String: Any]] ?? [:]
        #expect(!savedMarks.isEmpty)
        #expect(Set(marks.marks.map { "\($0.sender) \($0.topic) \($0.boot) \($0.sequence) \($0.time.secondsSince1970)" })
                == Set(savedMarks.map { "\($0.key) \($0.value["boot"] as? UInt64 ?? 0) \($0.value["sequence"] as? UInt64 ?? 0) \(($0.value["time"] as? NSNumber)?.doubleValue ?? 0)" }),
                "the replay stamps survive")
        let outbox = try object("household-outbox")
        let replication = try history.household.replication()
        #expect(replication.publishedUpTo?.secondsSince1970 == (outbox["published_up_to"] as? NSNumber)?.doubleValue)
        #expect(replication.epoch == outbox["epoch"] as? String)
        #expect(Dictionary(uniqueKeysWithValues: replication.peers.compactMap { p in p.answeredEpoch.map { (p.member, $0) } })
                == outbox["answered"] as? [String: String])
        #expect(Dictionary(uniqueKeysWithValues: replication.peers.compactMap { p in p.heardUpTo.map { (p.member, $0.secondsSince1970) } })
                == (outbox["heard_up_to"] as? [String: NSNumber])?.mapValues(\.doubleValue))
        #expect(history.commands.refused() == (try object("mqtt-refused-commands"))["refused"] as? [String: Int])
        let tables = try history.read("tables") { try String.fetchAll($0, sql: "SELECT name FROM sqlite_master WHERE type = 'table'") }
        #expect(!tables.contains("engine_state"))
    }
}
