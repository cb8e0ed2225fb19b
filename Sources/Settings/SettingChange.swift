// A setting's new value on its way into the history: checked and put in canonical form first,
// then stored. Every writer of a stored setting goes this one way (`config set` and `config
// unset`, a sink's `config set`, the page's daily goal and switch of the daily limit), so that
// what is stored is always what the file and `--set` accept too, a bad value is refused before
// anything is written, and a value saved under a setting's former name never outlives a change.

import History

package struct SettingChange: Sendable, Equatable {
    /// The key's canonical name (`bottle.<ID>.<base>` for a bottle's own).
    package let name: String
    /// The canonical text (`TRUE` → `true`, ` 7:05` → `07:05`); nil forgets the saved value
    /// (the file's or the default applies again).
    package let value: String?
    /// The value as it may be shown or logged (a secret redacted).
    package let shown: String
    /// The names the key had before (`goal_ml`, `bottle.<ID>.goal_ml`): a value saved under one
    /// is forgotten by any change, so that it cannot come back when the new one is unset.
    let formerNames: [String]
    /// One line for the person when the key was given by a former name; nil otherwise.
    package let note: String?

    /// Checks `raw` against `key`; a bad value throws, naming the valid choices.
    package init(_ key: SettingKey, _ raw: String, givenAs given: String? = nil) throws(SettingError) {
        name = key.name
        let value = try key.normalize(raw)
        self.value = value
        shown = key.shown(value)
        formerNames = key.formerNames
        note = SettingChange.note(key, givenAs: given)
    }

    /// Checks `raw` against the setting called `name` (a bottle's own, or a former name, included).
    package init(named name: String, _ raw: String) throws(SettingError) {
        try self.init(SettingCatalog.requireKey(name), raw, givenAs: name)
    }

    /// Forgets the saved value of the setting called `name` (`config unset`).
    package init(unsetting name: String) throws(SettingError) {
        let key = try SettingCatalog.requireKey(name)
        self.name = key.name
        value = nil
        shown = "(unset)"
        formerNames = key.formerNames
        note = SettingChange.note(key, givenAs: name)
    }

    /// Stores the value, where `Configuration` reads it as a stored value (above the file).
    package func store(in settings: SettingsStore) throws {
        try settings.set(name, value)
        for former in formerNames { try settings.set(former, nil) }
    }

    private static func note(_ key: SettingKey, givenAs given: String?) -> String? {
        guard let given, SettingCatalog.isFormerName(given) else { return nil }
        return "note: \(given) is the former name of \(key.name)"
    }
}
