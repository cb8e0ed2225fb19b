// Persisted settings (`config set`): text values by dotted key; their meaning is the Bridge's.

import GRDB

/// One row of the `setting` table.
struct SettingRecord: Sendable, Hashable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "setting"
    var key: String
    var value: String

    init(key: String, value: String) {
        self.key = key
        self.value = value
    }

    init(row: Row) throws {
        key = try row.decode(String.self, forColumn: "key")
        value = try row.decode(String.self, forColumn: "value")
    }

    func encode(to container: inout PersistenceContainer) throws {
        container["key"] = key
        container["value"] = value
    }
}

/// The settings' part of the history (`history.settings`): what `config set` persisted, over the
/// history's one database writer.
package struct SettingsStore: Sendable {
    let history: DrinkHistory
}

extension DrinkHistory {
    /// The persisted settings (SettingsStore).
    package var settings: SettingsStore { SettingsStore(history: self) }
}

extension SettingsStore {
    /// The persisted value of `key`, nil when it was never set (or was removed).
    package func value(_ key: String) throws -> String? {
        try history.read("reading setting \(key)") { db in try SettingRecord.fetchOne(db, key: key)?.value }
    }

    /// Persists `value` for `key`; nil removes the key (back to the file's or the default value).
    package func set(_ key: String, _ value: String?) throws {
        guard !key.isEmpty else {
            throw HistoryError.invalidArgument(what: "empty setting key", expected: "a dotted key such as reminders.enabled")
        }
        try history.write("saving setting \(key)") { db in
            if let value {
                try SettingRecord(key: key, value: value).upsert(db)
            } else {
                _ = try SettingRecord.deleteOne(db, key: key)
            }
        }
    }

    /// Every persisted setting.
    package func all() throws -> [String: String] {
        try history.read("reading settings") { db in
            Dictionary(uniqueKeysWithValues: try SettingRecord.fetchAll(db).map { ($0.key, $0.value) })
        }
    }
}
