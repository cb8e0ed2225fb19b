// The schedules `schedule add` keeps: a typed row each in the `schedule` table, and the schema
// step that moves the JSON documents earlier releases kept as settings (`schedule.<id>`) into it.
// A document that reads moves field by field and its setting goes; one that does not stays where
// it was, byte for byte, and is reported, never dropped.

import Foundation
import GRDB
@testable import History
import Testing
import Timekeeping

@Suite("schedules: a typed table, and the documents of earlier releases moved into it")
struct ScheduleTableTests {
    /// The documents `schedule add` of the previous release wrote (JSONEncoder of the table's
    /// fields, every value a string).
    static let releaseDocuments = [
        "schedule.VITD": #"{"enabled":"true","first":"2026-11-22T09:00","frequency":"weekly","id":"VITD","intake":"vitamin-d","name":"Vitamin D"}"#,
        "schedule.WATER": #"{"body":"A glass now","enabled":"false","first":"2026-11-22T07:30","frequency":"twice-daily","id":"WATER","intake":"water","min_ml":"150"}"#,
    ]

    /// Documents no release wrote: not JSON, a number for a string, another id than the key's,
    /// a field a schedule has not, a date that does not exist, a switch that is not one.
    static let oddDocuments = [
        "schedule.TEXT": "not json",
        "schedule.NUM": #"{"first":"2026-11-22T09:00","frequency":"daily","id":"NUM","intake":"zinc","min_ml":5}"#,
        "schedule.OTHER": #"{"first":"2026-11-22T09:00","frequency":"daily","id":"ZINC","intake":"zinc"}"#,
        "schedule.EXTRA": #"{"colour":"red","first":"2026-11-22T09:00","frequency":"daily","id":"EXTRA","intake":"zinc"}"#,
        "schedule.DAY32": #"{"first":"2026-11-32T09:00","frequency":"daily","id":"DAY32","intake":"zinc"}"#,
        "schedule.SWITCH": #"{"enabled":"maybe","first":"2026-11-22T09:00","frequency":"daily","id":"SWITCH","intake":"zinc"}"#,
    ]

    static func first(_ text: String) throws -> LocalDateTime { try LocalDateTime(parsing: text) }

    /// A copy of the released history (before the schedule table), holding `documents` as the
    /// release kept them, then opened (upgraded).
    func upgradedRelease(_ documents: [String: String]) throws -> (DrinkHistory, String) {
        let folder = NSTemporaryDirectory() + "schedule-migration-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let path = folder + "/h.sqlite"
        try FileManager.default.copyItem(atPath: ReleaseHistory.folder.appendingPathComponent("release-history.sqlite").path, toPath: path)
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            #expect(try !db.tableExists("schedule"), "the fixture predates the table")
            for (key, value) in documents {
                try db.execute(sql: "INSERT INTO setting (key, value) VALUES (?, ?)", arguments: [key, value])
            }
        }
        try queue.close()
        return (try DrinkHistory(path: path), folder)
    }

    @Test("the release's documents move into typed rows and their settings go; the other settings stay")
    func releaseDocumentsMove() throws {
        let (history, folder) = try upgradedRelease(Self.releaseDocuments)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(try history.schedules.all() == [
            StoredSchedule(id: "VITD", name: "Vitamin D", intake: "vitamin-d", frequency: "weekly", first: try Self.first("2026-11-22T09:00")),
            StoredSchedule(id: "WATER", intake: "water", frequency: "twice-daily", first: try Self.first("2026-11-22T07:30"),
                           enabled: false, body: "A glass now", minML: 150),
        ])
        let settings = try history.settings.all()
        #expect(settings.keys.filter { $0.hasPrefix("schedule.") }.isEmpty, "\(settings.keys.sorted())")
        #expect(settings.sorted { $0.key < $1.key }.map { [$0.key, $0.value] } == (try ReleaseHistory()).expected["setting"])
        #expect(try history.schedules.unreadDocuments().isEmpty)
        #expect(try history.appliedMigrations().contains("v10-schedule-table"))
    }

    @Test("a document that does not read stays where it was, byte for byte, reported; the rest move")
    func oddDocumentsStay() throws {
        let (history, folder) = try upgradedRelease(Self.releaseDocuments.merging(Self.oddDocuments) { $1 })
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(try history.schedules.all().map(\.id) == ["VITD", "WATER"])
        #expect(try history.schedules.unreadDocuments() == Self.oddDocuments)
        for (key, value) in Self.oddDocuments {
            #expect(try history.settings.value(key) == value)
        }
        // `schedule remove` takes a kept document away as well.
        #expect(try history.schedules.remove(id: "TEXT"))
        #expect(try history.settings.value("schedule.TEXT") == nil)
        #expect(try !history.schedules.remove(id: "TEXT"))
    }

    @Test("a new history has the table and the step; rows are saved, replaced, read and removed by id")
    func storeRoundTrip() throws {
        let history = try memoryHistory()
        #expect(try history.appliedMigrations().contains("v10-schedule-table"))
        #expect(try history.schedules.all().isEmpty)
        var zinc = StoredSchedule(id: "ZN", name: "Zinc", intake: "zinc", frequency: "daily", first: try Self.first("2026-11-22T20:00"))
        try history.schedules.save(zinc)
        try history.schedules.save(StoredSchedule(id: "A", intake: "water", frequency: "weekly", first: try Self.first("2026-01-01T08:00"), minML: 200))
        zinc.enabled = false
        try history.schedules.save(zinc)
        #expect(try history.schedules.all().map(\.id) == ["A", "ZN"])
        #expect(try history.schedules.schedule(id: "ZN") == zinc)
        // Typed columns: the local date-time as its text, the switch and the millilitres as numbers.
        let stored = try history.read("row") { db in
            try String.fetchOne(db, sql: "SELECT \"first\" || '|' || typeof(enabled) || enabled || '|' || typeof(min_ml) || min_ml FROM schedule WHERE id = 'A'")
        }
        #expect(stored == "2026-01-01T08:00|integer1|integer200")
        #expect(try history.schedules.remove(id: "ZN"))
        #expect(try history.schedules.schedule(id: "ZN") == nil)
        #expect(throws: HistoryError.self) { try history.schedules.save(StoredSchedule(id: "", intake: "zinc", frequency: "daily", first: try Self.first("2026-11-22T20:00"))) }
    }
}
