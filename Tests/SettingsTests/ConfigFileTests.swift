// The configuration's levels (docs/design.md 3.2): the TOML file, whose tables are dotted
// prefixes, values checked and written in canonical form; an unknown key or a bad value in the
// file is one warning line and the rest of the file still applies, while the same mistake in
// `--set` is refused with the closest key or the valid range; `config set` overrides the file and
// `--set` both, and `config list` can say where each value comes from.

import Foundation
import Reminders
@testable import Settings
import Testing

/// A config file with `text` in a folder of its own, removed after `body`.
private func withConfigFile<T>(_ text: String, _ body: (String) throws -> T) throws -> T {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("settings-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("bridge.toml").path
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    return try body(path)
}

@Suite("Settings: the file, config set and --set")
struct ConfigFileTests {
    @Test("tables are dotted prefixes and values are stored in canonical form")
    func tablesAndCanonicalValues() throws {
        let configuration = try withConfigFile("""
            daily_goal_ml = 2200
            timezone = "Europe/Madrid"
            [reminders]
            daily_limit = false
            active_start = " 7:05"
            [mqtt]
            url = "mqtt://broker.lan"
            """) { try Configuration.load(file: $0, mustExist: true) }
        #expect(configuration.warnings == [])
        #expect(configuration.fileValues == ["daily_goal_ml": "2200", "timezone": "Europe/Madrid", "reminders.daily_limit": "false",
                                             "reminders.active_start": "07:05", "mqtt.url": "mqtt://broker.lan"])
        #expect(configuration[Setting.dailyGoalML] == 2200)
        #expect(!configuration[Setting.dailyLimit])
        #expect(configuration[Setting.activeStart].minuteOfDay == 7 * 60 + 5)
        #expect(configuration.timeZone.identifier == "Europe/Madrid")
        #expect(configuration[Setting.mqttURL] == "mqtt://broker.lan")
        #expect(configuration.source(of: "daily_goal_ml") == "file" && configuration.source(of: "reminders.enabled") == "default")
    }

    @Test("an unknown key or a bad value in the file is one warning; the rest of the file applies")
    func badLinesOfTheFileAreWarnings() throws {
        let (configuration, path) = try withConfigFile("""
            daily_goal_ml = 50000
            colour = "blue"
            [reminders]
            enabled = false
            """) { (try Configuration.load(file: $0, mustExist: true), $0) }
        #expect(configuration.warnings.count == 2, "\(configuration.warnings)")
        #expect(configuration.warnings.contains("\(path): unknown key 'colour' ignored"))
        #expect(configuration.warnings.contains {
            $0.contains("'50000'") && $0.contains("daily_goal_ml") && $0.contains("the rest of the file still applies")
        })
        #expect(configuration[Setting.dailyGoalML] == nil, "the refused goal is not used")
        #expect(!configuration[Setting.remindersEnabled])
    }

    @Test("a file that is not TOML is refused with its line; a named file must exist, the default need not")
    func unusableFiles() throws {
        let error = try withConfigFile("daily_goal_ml = 2200\n[reminders\nenabled = false\n") { path in
            #expect(throws: ConfigFileError.self) { try Configuration.load(file: path, mustExist: true) }
        }
        guard case .syntax(path: _, line: let line, message: _)? = error else {
            Issue.record("not a syntax error: \(String(describing: error))")
            return
        }
        #expect(line == 2)
        let missing = "/nonexistent-\(UUID().uuidString)/bridge.toml"
        #expect(throws: ConfigFileError.missing(path: missing)) { try Configuration.load(file: missing, mustExist: true) }
        #expect(try Configuration.load(file: missing, mustExist: false).fileValues.isEmpty)
    }

    @Test("--set refuses an unknown key with the closest one, a value out of range with the range, and text without =")
    func overridesAreRefusedWithTheReason() {
        var configuration = Configuration()
        #expect(throws: SettingError.unknownKey("reminders.daily_limt", suggestion: "reminders.daily_limit")) {
            try configuration.applyOverride("reminders.daily_limt=false")
        }
        #expect(throws: SettingError.unknownKey("zzzz", suggestion: nil)) { try configuration.applyOverride("zzzz=1") }
        #expect(throws: SettingError.invalidValue(key: "daily_goal_ml", value: "50000",
                                                  expected: SettingKind.integer(DailyGoal.rangeML).validChoices)) {
            try configuration.applyOverride("daily_goal_ml=50000")
        }
        #expect(throws: SettingError.invalidValue(key: "reminders.enabled", value: "maybe", expected: "true or false")) {
            try configuration.applyOverride("reminders.enabled=maybe")
        }
        #expect(throws: SettingError.malformedAssignment("daily_goal_ml")) { try configuration.applyOverride("daily_goal_ml") }
        #expect(throws: SettingError.malformedAssignment("=5")) { try configuration.applyOverride("=5") }
        #expect(configuration.overrides.isEmpty, "nothing refused is kept")
        #expect(SettingError.unknownKey("goal", suggestion: "daily_goal_ml").description
            == "unknown setting 'goal' (did you mean daily_goal_ml?); `aquavate-bridge config list` shows every key")
    }

    @Test("config set overrides the file, --set overrides both; an invalid stored value is skipped with a warning")
    func levels() throws {
        var configuration = try withConfigFile("daily_goal_ml = 2200\nmessages.enabled = false\n") {
            try Configuration.load(file: $0, mustExist: true)
        }
        configuration.useStoredValues(["daily_goal_ml": "2400", "reminders.min_deficit_ml": "lots", "retired.key": "1"])
        #expect(configuration.dailyGoalML() == 2400 && configuration.source(of: "daily_goal_ml") == "config set")
        #expect(configuration.warnings.count == 1 && configuration.warnings[0].hasPrefix("database: "), "\(configuration.warnings)")
        try configuration.applyOverride("daily_goal_ml=2600")
        #expect(configuration.dailyGoalML() == 2600 && configuration.source(of: "daily_goal_ml") == "--set")
        #expect(configuration.value("messages.enabled") == "false" && configuration.source(of: "messages.enabled") == "file")
        #expect(Configuration().dailyGoalML(bottleGoal: 1900) == 1900, "without a configured goal, the bottle's")
        #expect(Configuration().dailyGoalML() == HydrationSettings.defaultGoalML)
    }
}
