// Writes settings into the TOML config file (docs/design.md 3.2), for `aquavate-bridge setup`.
//
// The file is read with TOMLKit, the given keys are set (dotted names become tables, as the
// parser reads them: `mqtt.url` → `[mqtt] url`), and the whole table is written back with
// TOMLKit, so every other key and every `[[schedule]]` stays. TOMLKit keeps no comments: the
// new text starts with a header saying where it came from. Each value is checked and typed by
// its SettingKey (a bool as a TOML bool, an integer as an integer), exactly as `config set`
// checks it.

import Foundation
import TOMLKit

package enum ConfigFileWriter {
    /// The text of the config file `existing` (nil: no file yet) with `values` set.
    /// - Throws: `ConfigFileError.syntax` when `existing` is not TOML (nothing in it could be
    ///   kept safely); `SettingError` for an unknown key or a bad value.
    package static func text(updating existing: String?, path: String, with values: [(key: String, value: String)],
                            header: String) throws -> String {
        let root: TOMLTable
        do {
            root = try existing.map { try TOMLTable(string: $0) } ?? TOMLTable()
        } catch let error as TOMLParseError {
            throw ConfigFileError.syntax(path: path, line: Int(error.source.begin.line), message: error.description)
        }
        for (key, raw) in values {
            let setting = try SettingCatalog.requireKey(key)
            let value = try setting.normalize(raw)
            set(setting.tomlValue(value), at: setting.name.split(separator: ".").map(String.init), in: root)
            // The same setting under a former name would be read as well; the new value replaces it.
            for former in setting.formerNames { remove(at: former.split(separator: ".").map(String.init), in: root) }
        }
        let body = root.convert(to: .toml)
        return header + (body.hasSuffix("\n") ? body : body + "\n")
    }

    /// Sets `value` at the dotted `path` below `table`, creating the tables on the way. A nested
    /// table is written back into its parent after the change, whether TOMLKit handed out the
    /// parent's own node or a copy.
    private static func set(_ value: TOMLValueConvertible, at path: [String], in table: TOMLTable) {
        guard let first = path.first else { return }
        if path.count == 1 {
            table[first] = value
            return
        }
        let child = table[first]?.table ?? TOMLTable()
        set(value, at: Array(path.dropFirst()), in: child)
        table[first] = child
    }
}

extension ConfigFileWriter {
    /// Removes the value at the dotted `path` below `table`, if there is one.
    private static func remove(at path: [String], in table: TOMLTable) {
        guard let first = path.first else { return }
        if path.count == 1 {
            table.remove(at: first)
            return
        }
        guard let child = table[first]?.table else { return }
        remove(at: Array(path.dropFirst()), in: child)
        table[first] = child
    }
}

extension SettingKey {
    /// A normalised value as the TOML type the parser reads back to the same text.
    func tomlValue(_ value: String) -> TOMLValueConvertible {
        switch kind {
        case .bool: return value == "true"
        case .integer: return Int(value) ?? 0
        default: return value
        }
    }
}
