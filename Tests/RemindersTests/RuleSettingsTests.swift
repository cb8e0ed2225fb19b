// The defaults of docs/reminders.md 4–6, and settings that did not change reschedule nothing. How
// each is read from text is the configuration's (SettingsTests.RuleSettingKeysTests).

import Testing
@testable import Reminders
import Timekeeping

struct RuleSettingsTests {
    @Test func defaults() {
        let settings = ReminderSettings.rules()
        #expect(settings.schedules.isEmpty)
        #expect(settings.messages == MessageSettings(enabled: false, locale: .en, userPool: nil))
        #expect(settings.deadline == DeadlineSettings(enabled: false, period: .day, hoursBefore: 5, weeklyGoalML: nil))
        #expect(settings.deadline.weeklyTargetML(dailyGoalML: 2500) == 17_500)
        #expect(settings.rituals.enabled == false)
        #expect(settings.rituals.morning.description == "08:00" && settings.rituals.evening.description == "20:00")
        #expect(settings.rituals.terrain == nil && settings.rituals.nickname == "Terrain")
        #expect(settings.personReachable)
    }

    @Test func unchangedSettingsRescheduleNothing() {
        var sim = Simulation(rules: .rules { $0.rituals.enabled = true; $0.rituals.terrain = .coldBalanced },
                             date: "2026-03-10", time: "07:00")
        let before = sim.state
        sim.updateRules({ _ in }, on: "2026-03-10", at: "07:00:30")
        #expect(sim.state == before)
    }
}
