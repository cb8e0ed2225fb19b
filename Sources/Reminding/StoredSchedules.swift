// Schedules added with `aquavate-bridge schedule add` live in the history's `schedule` table
// (`history.schedules`, a typed row each), and are read after the file's `[[schedule]]` tables, as
// tables of the same fields: one reader (ScheduleTables) checks both.

import History
import Reminders

package enum StoredSchedules {
    /// The stored schedules as `[[schedule]]` tables, ordered by id.
    package static func tables(in store: ScheduleStore) -> [[String: String]] {
        ((try? store.all()) ?? []).map(table)
    }

    /// The stored schedules as `[[schedule]]` tables, ordered by id, and a warning per document
    /// left unread, in one read of the history.
    package static func tablesAndWarnings(in store: ScheduleStore) -> (tables: [[String: String]], warnings: [String]) {
        guard let stored = try? store.allAndUnread() else { return ([], []) }
        return (stored.schedules.map(table), warnings(stored.unread))
    }

    /// The `[[schedule]]` table of a stored schedule.
    package static func table(_ schedule: StoredSchedule) -> [String: String] {
        var table = ["id": schedule.id, "intake": schedule.intake, "frequency": schedule.frequency,
                     "first": schedule.first.description, "enabled": schedule.enabled ? "true" : "false"]
        if let name = schedule.name { table["name"] = name }
        if let body = schedule.body { table["body"] = body }
        if let minML = schedule.minML { table["min_ml"] = String(minML) }
        return table
    }

    /// The row of `table`, which ScheduleTables read as `checked`: its id and first occurrence as
    /// read, the other fields as written.
    package static func schedule(_ table: [String: String], checked: IntakeSchedule) -> StoredSchedule {
        StoredSchedule(id: checked.id, name: table["name"], intake: table["intake"] ?? checked.intake.description,
                       frequency: table["frequency"] ?? checked.frequency.rawValue, first: checked.first,
                       enabled: checked.enabled, body: table["body"], minML: table["min_ml"].flatMap { Int($0) })
    }

    /// One warning line per schedule document an earlier release kept that could not be moved into
    /// the table: it is kept, unused, until `schedule remove` removes it.
    private static func warnings(_ unread: [String: String]) -> [String] {
        unread.keys.sorted().map { key in
            let id = key.dropFirst("schedule.".count)
            return "the setting \(key) holds a schedule an earlier version saved that this one cannot read; it is kept and not used: 'aquavate-bridge schedule remove \(id)' removes it"
        }
    }
}
