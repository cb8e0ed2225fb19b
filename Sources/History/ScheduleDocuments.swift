// The schedules earlier releases kept as settings, one JSON document per schedule (`schedule.<id>`
// → `{"id": …, "intake": …, "frequency": …, "first": …, "enabled": "true", …}`, every value a
// string), moved into the `schedule` table by the schema step that creates it, and never written
// again.
//
// A document is moved only when every field fits its column: the id the key names, the fields a
// `[[schedule]]` table has and no other, a local date-time, a switch, a whole number. One that does
// not is kept where it was (`ScheduleStore.unreadDocuments`; `schedule list` warns of it and
// `schedule remove` removes it): a person's schedule is never dropped unseen.

import Foundation
import GRDB
import Timekeeping

enum ScheduleDocuments {
    /// The settings' key prefix of a schedule document.
    static let prefix = "schedule."

    /// The fields a document may hold (those of a `[[schedule]]` table).
    static let fields: Set<String> = ["id", "name", "intake", "frequency", "first", "enabled", "body", "min_ml"]

    /// Moves every document that reads into the table, deleting its setting; returns the keys kept.
    @discardableResult
    static func move(_ db: Database) throws -> [String] {
        var kept: [String] = []
        let rows = try Row.fetchAll(db, sql: "SELECT key, value FROM setting WHERE substr(key, 1, ?) = ? ORDER BY key",
                                    arguments: [prefix.count, prefix])
        for row in rows {
            let key: String = row["key"]
            guard let schedule = schedule(key: key, document: row["value"]) else {
                kept.append(key)
                continue
            }
            try schedule.insert(db)
            try db.execute(sql: "DELETE FROM setting WHERE key = ?", arguments: [key])
        }
        return kept
    }

    /// The documents still kept as settings (those `move` could not read), by setting key.
    static func unread(_ db: Database) throws -> [String: String] {
        try Row.fetchAll(db, sql: "SELECT key, value FROM setting WHERE substr(key, 1, ?) = ?", arguments: [prefix.count, prefix])
            .reduce(into: [String: String]()) { $0[$1["key"]] = $1["value"] }
    }

    /// The schedule a document holds, nil when one of its fields does not fit its column.
    static func schedule(key: String, document: String) -> StoredSchedule? {
        let id = String(key.dropFirst(prefix.count))
        guard !id.isEmpty,
              let table = try? JSONDecoder().decode([String: String].self, from: Data(document.utf8)),
              Set(table.keys).isSubset(of: fields),
              table["id"].map(trimmed) == id,
              let intake = table["intake"], let frequency = table["frequency"],
              let firstText = table["first"], let first = try? LocalDateTime(parsing: trimmed(firstText))
        else { return nil }
        var enabled = true
        if let text = table["enabled"] {
            switch trimmed(text).lowercased() {
            case "true": enabled = true
            case "false": enabled = false
            default: return nil
            }
        }
        var minML: Int?
        if let text = table["min_ml"] {
            guard let value = Int(trimmed(text)) else { return nil }
            minML = value
        }
        return StoredSchedule(id: id, name: table["name"], intake: intake, frequency: frequency, first: first,
                              enabled: enabled, body: table["body"], minML: minML)
    }

    private static func trimmed(_ text: String) -> String { text.trimmingCharacters(in: .whitespacesAndNewlines) }
}
