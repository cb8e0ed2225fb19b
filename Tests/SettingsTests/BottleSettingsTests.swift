// A bottle's own settings (docs/design.md 6): `bottle.<ID>.<key>` is a key of its own, checked as
// its global key is and refused for a key a bottle may not have; a bottle's view of the
// configuration takes its own keys, by serial or address in any case, over the global ones, and
// the global view is unchanged.

@testable import Settings
import Testing

@Suite("Settings: a bottle's own")
struct BottleSettingsTests {
    static let second = "AA:00:00:00:00:02"

    @Test("bottle.<ID>.<key> is a setting of its own: checked like its global key, overriding it for that bottle only")
    func perBottleSettings() throws {
        let key = try #require(SettingCatalog.key(named: "bottle.aq1.daily_goal_ml"))
        #expect(key.name == "bottle.AQ1.daily_goal_ml" && key.access == .person)
        #expect(throws: SettingError.self) { try key.normalize("50000") }
        #expect(throws: SettingError.self) { try SettingCatalog.requireKey("bottle.AQ1.mqtt.url") }
        #expect(throws: SettingError.self) { try SettingCatalog.requireKey("bottle.AQ1.colour") }
        #expect(SettingCatalog.key(named: "bottle.address") != nil, "the global bottle.address stays what it was")
        #expect(SettingCatalog.refusalFromSink(key: "bottle.AQ1.daily_goal_ml", value: "1800") == nil)

        var configuration = Configuration()
        try configuration.applyOverride("daily_goal_ml=2600")
        try configuration.applyOverride("bottle.aq1.daily_goal_ml=1800")
        try configuration.applyOverride("bottle.AA:00:00:00:00:02.owner=Bea")
        try configuration.applyOverride("bottle.AQ1.reminders.enabled=false")
        #expect(configuration.forBottle(["AQ1"]).dailyGoalML() == 1800)
        #expect(!configuration.forBottle(["AQ1"])[Setting.remindersEnabled])
        #expect(configuration.forBottle(["AQ2", Self.second]).dailyGoalML() == 2600)
        #expect(configuration.forBottle(["AQ2", Self.second.lowercased()]).owner == "Bea")
        #expect(configuration.forBottle(["AQ1"]).owner == nil)
        #expect(configuration.dailyGoalML() == 2600 && configuration.owner == nil, "the global view is unchanged")
        #expect(configuration.bottleSettingNames == ["bottle.AA:00:00:00:00:02.owner", "bottle.AQ1.daily_goal_ml", "bottle.AQ1.reminders.enabled"])
        #expect(configuration.value("bottle.aq1.daily_goal_ml") == "1800")
    }
}
