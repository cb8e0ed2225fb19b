// Schedules added with `aquavate-bridge schedule add` (docs/reminders.md 3), kept in the `schedule`
// table, a typed column per field of a `[[schedule]]` table (docs/design.md 3.2). What a field
// means (an intake type, a frequency) is the Reminders module's, which this module does not
// import: they are kept as the person wrote them, and read (and refused, with the reason) there.

import Foundation
import GRDB
import Timekeeping

/// One row of the `schedule` table.
package struct StoredSchedule: Sendable, Hashable {
    /// Short id (`VITD`): the key `schedule remove` and `enable` name it by.
    package var id: String
    /// Shown in the reminder; the id when nil.
    package var name: String?
    /// `water` (the bottle's drinks) or a manual intake type such as `vitamin-d`.
    package var intake: String
    /// How often, as the Reminders module names it (`daily`, `weekly`, …).
    package var frequency: String
    /// The first occurrence, in local time.
    package var first: LocalDateTime
    package var enabled: Bool
    /// The reminder's text; the rule's own when nil.
    package var body: String?
    /// For `water`: the millilitres that count as taken; the rule's default when nil.
    package var minML: Int?

    package init(id: String, name: String? = nil, intake: String, frequency: String, first: LocalDateTime,
                 enabled: Bool = true, body: String? = nil, minML: Int? = nil) {
        self.id = id
        self.name = name
        self.intake = intake
        self.frequency = frequency
        self.first = first
        self.enabled = enabled
        self.body = body
        self.minML = minML
    }
}

extension StoredSchedule: FetchableRecord, PersistableRecord {
    package static let databaseTableName = "schedule"

    package init(row: Row) throws {
        id = try row.decode(String.self, forColumn: "id")
        name = try row.decode(String?.self, forColumn: "name")
        intake = try row.decode(String.self, forColumn: "intake")
        frequency = try row.decode(String.self, forColumn: "frequency")
        first = try row.decode(LocalDateTime.self, forColumn: "first")
        enabled = try row.decode(Bool.self, forColumn: "enabled")
        body = try row.decode(String?.self, forColumn: "body")
        minML = try row.decode(Int?.self, forColumn: "min_ml")
    }

    package func encode(to container: inout PersistenceContainer) throws {
        container["id"] = id
        container["name"] = name
        container["intake"] = intake
        container["frequency"] = frequency
        container["first"] = first
        container["enabled"] = enabled
        container["body"] = body
        container["min_ml"] = minML
    }
}

extension LocalDateTime: DatabaseValueConvertible {
    /// Stored as its text, `YYYY-MM-DDTHH:MM`.
    package var databaseValue: DatabaseValue { description.databaseValue }

    package static func fromDatabaseValue(_ dbValue: DatabaseValue) -> LocalDateTime? {
        String.fromDatabaseValue(dbValue).flatMap { try? LocalDateTime(parsing: $0) }
    }
}

/// The stored schedules' part of the history (`history.schedules`), over its one database writer.
package struct ScheduleStore: Sendable {
    let history: DrinkHistory
}

extension DrinkHistory {
    /// The schedules added with `schedule add` (ScheduleStore).
    package var schedules: ScheduleStore { ScheduleStore(history: self) }
}

extension ScheduleStore {
    /// Every stored schedule, ordered by id.
    package func all() throws -> [StoredSchedule] {
        try history.read("reading the schedules") { db in try StoredSchedule.order(Column("id")).fetchAll(db) }
    }

    /// Every stored schedule, ordered by id, and the documents left unread (`unreadDocuments`), in
    /// one read: what a bottle's reminder settings take from here.
    package func allAndUnread() throws -> (schedules: [StoredSchedule], unread: [String: String]) {
        try history.read("reading the schedules") { db in
            (try StoredSchedule.order(Column("id")).fetchAll(db), try ScheduleDocuments.unread(db))
        }
    }

    /// The schedule `id`, nil when none is stored.
    package func schedule(id: String) throws -> StoredSchedule? {
        try history.read("reading schedule \(id)") { db in try StoredSchedule.fetchOne(db, key: id) }
    }

    /// Stores `schedule`, replacing the one with its id.
    package func save(_ schedule: StoredSchedule) throws {
        guard !schedule.id.isEmpty else {
            throw HistoryError.invalidArgument(what: "empty schedule id", expected: "a short id such as VITD")
        }
        try history.write("saving schedule \(schedule.id)") { db in try schedule.upsert(db) }
    }

    /// Removes schedule `id`, and a document of it that an earlier release left unread
    /// (`unreadDocuments`); false when there was neither.
    @discardableResult
    package func remove(id: String) throws -> Bool {
        try history.write("removing schedule \(id)") { db in
            let removed = try StoredSchedule.deleteOne(db, key: id)
            try db.execute(sql: "DELETE FROM setting WHERE key = ?", arguments: [ScheduleDocuments.prefix + id])
            return removed || db.changesCount > 0
        }
    }

    /// The schedules an earlier release kept as JSON documents (settings `schedule.<id>`) that the
    /// move to the table could not read, by setting key: they stay where they were, never dropped,
    /// until `schedule remove <id>` removes them.
    package func unreadDocuments() throws -> [String: String] {
        try history.read("reading unread schedule documents") { db in try ScheduleDocuments.unread(db) }
    }
}
