// Schedules added with `aquavate-bridge schedule add` live in the database, one setting per
// schedule (`schedule.ID` → the table's fields as JSON), and are read after the file's
// `[[schedule]]` tables.

import Foundation
import History

package enum StoredSchedules {
    static let prefix = "schedule."

    /// The stored tables, ordered by id.
    package static func tables(in history: DrinkHistory) -> [[String: String]] {
        let settings = (try? history.settings.all()) ?? [:]
        return settings.keys.filter { $0.hasPrefix(prefix) }.sorted().compactMap { key in
            guard let data = settings[key]?.data(using: .utf8) else { return nil }
            return try? JSONDecoder().decode([String: String].self, from: data)
        }
    }

    package static func save(_ table: [String: String], id: String, in history: DrinkHistory) throws {
        let data = try JSONEncoder().encode(table)
        try history.settings.set(prefix + id, String(decoding: data, as: UTF8.self))
    }

    package static func table(id: String, in history: DrinkHistory) throws -> [String: String]? {
        guard let text = try history.settings.value(prefix + id) else { return nil }
        return try JSONDecoder().decode([String: String].self, from: Data(text.utf8))
    }

    package static func remove(id: String, in history: DrinkHistory) throws {
        try history.settings.set(prefix + id, nil)
    }
}
