// A setting's new value on its way into the history: checked and put in canonical form first,
// then stored. Every writer of a stored setting goes this one way (`config set`, a sink's
// `config set`, the page's switch of the daily limit), so that what is stored is always what the
// file and `--set` accept too, and a bad value is refused before anything is written.

import History

public struct SettingChange: Sendable, Equatable {
    /// The key's canonical name (`bottle.<ID>.<base>` for a bottle's own).
    public let name: String
    /// The canonical text (`TRUE` → `true`, ` 7:05` → `07:05`).
    public let value: String
    /// The value as it may be shown or logged (a secret redacted).
    public let shown: String

    /// Checks `raw` against `key`; a bad value throws, naming the valid choices.
    public init(_ key: SettingKey, _ raw: String) throws(SettingError) {
        name = key.name
        value = try key.normalize(raw)
        shown = key.shown(value)
    }

    /// Checks `raw` against the setting called `name` (a bottle's own included).
    public init(named name: String, _ raw: String) throws(SettingError) {
        try self.init(SettingCatalog.requireKey(name), raw)
    }

    /// Stores the value, where `Configuration` reads it as a stored value (above the file).
    public func store(in history: DrinkHistory) throws {
        try history.setSetting(name, value)
    }
}
