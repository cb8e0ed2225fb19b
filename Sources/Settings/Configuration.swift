// The bridge's effective settings: defaults < config file < `config set` (database) < `--set`.
//
// docs/design.md 3.2: settings changed with `config set` live in the database and override the file;
// `--set` overrides both for one run. An unknown key in the file is a warning, a bad value of a
// known key is refused with the reason, and the rest of the file still loads.

import Foundation
import Reminders

package struct Configuration: Sendable {
    /// Values read from the TOML file (already validated and normalised).
    package private(set) var fileValues: [String: String] = [:]
    /// Values saved with `config set` (from the database).
    package private(set) var storedValues: [String: String] = [:]
    /// `--set KEY=VALUE` values for this run.
    package private(set) var overrides: [String: String] = [:]
    /// `[[schedule]]` tables of the file, as text values, for the scheduled-intake rules.
    package private(set) var scheduleTables: [[String: String]] = []
    /// Problems found while loading that did not stop the load (one line each).
    package private(set) var warnings: [String] = []
    /// Folder of the config file, for relative paths inside it (`messages.pool`).
    package private(set) var baseDirectory: String?
    /// The bottle a view is of (its key, serial and address; BottleSettings.swift); empty: the global view.
    package internal(set) var bottleIDs: [String] = []

    package init() {}

    /// Loads a TOML file. A missing file is fine when `mustExist` is false (the default path);
    /// a file that cannot be parsed as TOML is an error, since nothing in it can be trusted.
    package static func load(file path: String, mustExist: Bool) throws(ConfigFileError) -> Configuration {
        var configuration = Configuration()
        guard FileManager.default.fileExists(atPath: path) else {
            if mustExist { throw .missing(path: path) }
            return configuration
        }
        guard let data = FileManager.default.contents(atPath: path),
              let text = String(data: data, encoding: .utf8) else {
            throw .unreadable(path: path)
        }
        let parsed = try ConfigFileParser.parse(text, path: path)
        configuration.baseDirectory = (path as NSString).deletingLastPathComponent
        configuration.scheduleTables = parsed.schedules
        configuration.warnings = parsed.warnings
        for (name, raw) in formerNamesFirst(parsed.values) {
            guard let key = SettingCatalog.key(named: name) else {
                configuration.warnings.append("\(path): unknown key '\(name)' ignored")
                continue
            }
            if SettingCatalog.isFormerName(name) {
                configuration.warnings.append("\(path): '\(name)' is the former name of '\(key.name)'; it still applies, rename it")
            }
            do {
                configuration.fileValues[key.name] = try key.normalize(raw)
            } catch {
                configuration.warnings.append("\(path): \(error.description); the rest of the file still applies")
            }
        }
        return configuration
    }

    /// Adds the settings saved with `config set`. Invalid stored values (from an older version)
    /// are skipped with a warning.
    package mutating func useStoredValues(_ values: [String: String]) {
        for (name, raw) in Configuration.formerNamesFirst(values) {
            guard let key = SettingCatalog.key(named: name) else { continue }
            do {
                storedValues[key.name] = try key.normalize(raw)
            } catch {
                warnings.append("database: \(error.description)")
            }
        }
    }

    /// The values by name, those under a former name first: where a setting is given under both
    /// names, the current one is read last and wins.
    static func formerNamesFirst(_ values: [String: String]) -> [(key: String, value: String)] {
        values.sorted { first, second in
            let firstIsFormer = SettingCatalog.isFormerName(first.key), secondIsFormer = SettingCatalog.isFormerName(second.key)
            return firstIsFormer != secondIsFormer ? firstIsFormer : first.key < second.key
        }
    }

    /// Uses `tables` as the `[[schedule]]` tables instead of the file's (the demo's own schedule).
    package mutating func useSchedules(_ tables: [[String: String]]) {
        scheduleTables = tables
    }

    /// Applies one `--set KEY=VALUE`; refuses unknown keys and bad values.
    package mutating func applyOverride(_ assignment: String) throws(SettingError) {
        guard let equals = assignment.firstIndex(of: "=") else { throw .malformedAssignment(assignment) }
        let name = String(assignment[..<equals]).trimmingCharacters(in: .whitespaces)
        let raw = String(assignment[assignment.index(after: equals)...])
        guard !name.isEmpty else { throw .malformedAssignment(assignment) }
        let key = try SettingCatalog.requireKey(name)
        overrides[key.name] = try key.normalize(raw)
    }

    /// Replaces the three levels at once (a bottle's view, BottleSettings.swift).
    mutating func replaceLevels(file: [String: String], stored: [String: String], overrides: [String: String]) {
        fileValues = file
        storedValues = stored
        self.overrides = overrides
    }

    /// The effective text value of a key, or nil if unset and without default.
    package func value(_ name: String) -> String? {
        let name = SettingCatalog.key(named: name)?.name ?? name
        return overrides[name] ?? storedValues[name] ?? fileValues[name] ?? SettingCatalog.key(named: name)?.defaultValue
    }

    /// Where the effective value comes from, for `config list`.
    package func source(of name: String) -> String {
        let name = SettingCatalog.key(named: name)?.name ?? name
        if overrides[name] != nil { return "--set" }
        if storedValues[name] != nil { return "config set" }
        if fileValues[name] != nil { return "file" }
        return "default"
    }

    /// The configured time zone, else the system's.
    package var timeZone: TimeZone { self[Setting.timezone] }

    /// The daily goal: configured, else the bottle's goal if known, else 2500 ml.
    package func dailyGoalML(bottleGoal: Int? = nil) -> Int {
        self[Setting.dailyGoalML] ?? bottleGoal ?? HydrationSettings.defaultGoalML
    }
}

/// Why the config file could not be used at all.
package enum ConfigFileError: Error, Equatable, CustomStringConvertible {
    case missing(path: String)
    case unreadable(path: String)
    case syntax(path: String, line: Int?, message: String)

    package var description: String {
        switch self {
        case .missing(let path):
            return "config file \(path) does not exist; create it or leave out --config"
        case .unreadable(let path):
            return "config file \(path) cannot be read as UTF-8 text; check its permissions"
        case .syntax(let path, let line, let message):
            let place = line.map { "\(path):\($0)" } ?? path
            return "\(place): not valid TOML (\(message)); fix the file or leave out --config"
        }
    }
}
