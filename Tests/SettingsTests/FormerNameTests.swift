// A renamed setting keeps an installation's value: `goal_ml`, the daily goal's name before it was
// told apart from the bottle's goal, is still read from the file (with one warning line asking for
// the new name), from values saved by an earlier release, from `--set` and by `config set` and
// `config unset` (with a one-line note); where both names are given, the current one wins; a
// change under either name leaves no value under the former one behind, and `setup` rewriting the
// file drops it.

import Foundation
import History
@testable import Settings
import Testing

@Suite struct FormerNameTests {
    private func load(_ text: String) throws -> Configuration {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("former-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("bridge.toml").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return try Configuration.load(file: path, mustExist: true)
    }

    @Test("the file's goal_ml is the daily goal, global and a bottle's own, with one warning line each")
    func theFileStillReadsTheFormerName() throws {
        let configuration = try load("goal_ml = 2200\n[bottle.aq1]\ngoal_ml = 1800\n")
        #expect(configuration.fileValues == ["daily_goal_ml": "2200", "bottle.AQ1.daily_goal_ml": "1800"])
        #expect(configuration.dailyGoalML() == 2200 && configuration.forBottle(["AQ1"]).dailyGoalML() == 1800)
        #expect(configuration.warnings.count == 2, "\(configuration.warnings)")
        #expect(configuration.warnings.allSatisfy { $0.contains("is the former name of") && !$0.contains("\n") }, "\(configuration.warnings)")
        #expect(configuration.warnings.contains { $0.contains("'goal_ml' is the former name of 'daily_goal_ml'") })
    }

    @Test("given under both names, the current one wins, in the file and among saved values")
    func theCurrentNameWins() throws {
        var configuration = try load("daily_goal_ml = 2200\ngoal_ml = 9000\n")
        #expect(configuration.dailyGoalML() == 2200)
        configuration.useStoredValues(["goal_ml": "9100", "daily_goal_ml": "2400", "bottle.AQ1.goal_ml": "9200", "bottle.AQ1.daily_goal_ml": "1700"])
        #expect(configuration.dailyGoalML() == 2400 && configuration.forBottle(["AQ1"]).dailyGoalML() == 1700)
        #expect(configuration.source(of: "goal_ml") == "config set")
    }

    @Test("a value saved by an earlier release under goal_ml is read; --set takes the former name too")
    func savedValuesAndOverrides() throws {
        var configuration = Configuration()
        configuration.useStoredValues(["goal_ml": "2400"])
        #expect(configuration.dailyGoalML() == 2400 && configuration.warnings.isEmpty)
        try configuration.applyOverride("goal_ml=2600")
        #expect(configuration.dailyGoalML() == 2600 && configuration.value("goal_ml") == "2600")
        #expect(throws: SettingError.invalidValue(key: "daily_goal_ml", value: "50000", expected: "a whole number from 1 to 20000")) {
            try configuration.applyOverride("goal_ml=50000")
        }
    }

    @Test("config set under the former name stores the current one with a note, and no saved value is left under the old")
    func aChangeRemovesTheFormerName() throws {
        let history = try DrinkHistory(path: nil)
        try history.settings.set("goal_ml", "2400")
        try history.settings.set("bottle.AQ1.goal_ml", "1800")
        let change = try SettingChange(named: "goal_ml", "2300")
        #expect(change.name == "daily_goal_ml" && change.value == "2300")
        #expect(change.note == "note: goal_ml is the former name of daily_goal_ml")
        try change.store(in: history.settings)
        #expect(try history.settings.all() == ["daily_goal_ml": "2300", "bottle.AQ1.goal_ml": "1800"])
        #expect(try SettingChange(named: "daily_goal_ml", "2300").note == nil)

        let own = try SettingChange(named: "bottle.aq1.daily_goal_ml", "1900")
        try own.store(in: history.settings)
        #expect(try history.settings.all() == ["daily_goal_ml": "2300", "bottle.AQ1.daily_goal_ml": "1900"])
    }

    @Test("config unset forgets the value under both names, so the old one cannot come back")
    func unsetForgetsBothNames() throws {
        let history = try DrinkHistory(path: nil)
        try history.settings.set("goal_ml", "2400")
        try history.settings.set("daily_goal_ml", "2500")
        try history.settings.set("reminders.daily_limit", "false")
        try SettingChange(unsetting: "daily_goal_ml").store(in: history.settings)
        #expect(try history.settings.all() == ["reminders.daily_limit": "false"])
        let former = try SettingChange(unsetting: "goal_ml")
        #expect(former.name == "daily_goal_ml" && former.value == nil && former.note != nil)
        #expect(throws: SettingError.self) { try SettingChange(unsetting: "goal") }
    }

    @Test("setup writing the daily goal into a file that has goal_ml replaces it")
    func theWriterDropsTheFormerName() throws {
        let text = try ConfigFileWriter.text(updating: "goal_ml = 2000\ntimezone = \"UTC\"\n[bottle.AQ1]\ngoal_ml = 1500\n",
                                             path: "bridge.toml", with: [("goal_ml", "2300")], header: "")
        #expect(text.contains("daily_goal_ml = 2300") && text.contains("UTC"), "\(text)")
        let global = text.components(separatedBy: "[bottle")[0]
        #expect(!global.contains("\ngoal_ml") && !global.hasPrefix("goal_ml"), "\(text)")
        #expect(text.contains("goal_ml = 1500"), "a bottle's own key is another setting: \(text)")
    }
}
