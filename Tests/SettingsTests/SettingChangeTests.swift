// SettingChange, the one way a stored setting is written (`config set`, a sink's `config set`,
// the page's daily-limit switch): the value is checked and made canonical before it is stored, a
// bad one is refused with the valid choices and stores nothing, and a secret is shown redacted.

import History
import Settings
import Testing

@Suite struct SettingChangeTests {
    @Test func theCanonicalTextIsStored() throws {
        let history = try DrinkHistory(path: nil)
        let change = try SettingChange(named: "reminders.daily_limit", " ON ")
        #expect(change.name == "reminders.daily_limit" && change.value == "true" && change.shown == "true")
        try change.store(in: history.settings)
        #expect(try history.settings.value("reminders.daily_limit") == "true")
    }

    @Test func aBottlesOwnKeyIsStoredUnderItsCanonicalName() throws {
        let history = try DrinkHistory(path: nil)
        let change = try SettingChange(named: "bottle.f4:12.reminders.active_start", "7:05")
        #expect(change.name == "bottle.F4:12.reminders.active_start" && change.value == "07:05")
        try change.store(in: history.settings)
        #expect(try history.settings.all() == ["bottle.F4:12.reminders.active_start": "07:05"])
    }

    @Test func aBadValueIsRefusedBeforeAnythingIsStored() throws {
        let history = try DrinkHistory(path: nil)
        #expect(throws: SettingError.self) { try SettingChange(named: "reminders.daily_limit", "sometimes").store(in: history.settings) }
        #expect(throws: SettingError.self) { try SettingChange(named: "reminders.dialy_limit", "true").store(in: history.settings) }
        #expect(try history.settings.all().isEmpty)
    }

    @Test func aSecretIsShownRedacted() throws {
        let change = try SettingChange(named: "push.token", "tk_very_secret")
        #expect(change.value == "tk_very_secret" && change.shown != change.value && !change.shown.contains("secret"))
    }
}
