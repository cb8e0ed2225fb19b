// docs/design.md 3.2 keys of sections 4–6 (`messages.*`, `deadline.*`, `rituals.*`): each value is set
// from its text or refused with ONE line giving the reason and the valid choices, leaving the
// settings unchanged; and the defaults of docs/reminders.md 4–6.

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

    @Test func everyKeyFromText() throws {
        var settings = ReminderSettings.rules()
        for (key, value) in [("messages.enabled", "true"), ("messages.locale", "ES"), ("deadline.enabled", " TRUE "),
                             ("deadline.period", "both"), ("deadline.hours_before", "23"), ("deadline.weekly_goal_ml", "15000"),
                             ("rituals.enabled", "true"), ("rituals.morning", "6:45"), ("rituals.evening", "21:30:00"),
                             ("rituals.terrain", "warm_balanced"), ("rituals.nickname", "  Still Water ")] {
            try settings.apply(key: key, value: value)
        }
        #expect(settings.messages.enabled && settings.messages.locale == .es)
        #expect(settings.deadline == DeadlineSettings(enabled: true, period: .both, hoursBefore: 23, weeklyGoalML: 15_000))
        #expect(settings.rituals == RitualSettings(enabled: true, morning: TimeOfDay(hour: 6, minute: 45)!,
                                                   evening: TimeOfDay(hour: 21, minute: 30)!, terrain: .warmBalanced,
                                                   nickname: "Still Water"))
    }

    @Test(arguments: [
        ("messages.enabled", "yes", "messages.enabled = \"yes\" refused; expected true or false"),
        ("messages.locale", "fr", "messages.locale = \"fr\" refused; expected one of en, es"),
        ("deadline.period", "month", "deadline.period = \"month\" refused; expected one of day, week, both"),
        ("deadline.hours_before", "0", "deadline.hours_before = \"0\" refused; expected a whole number of hours from 1 to 23"),
        ("deadline.hours_before", "24", "deadline.hours_before = \"24\" refused; expected a whole number of hours from 1 to 23"),
        ("deadline.weekly_goal_ml", "-5", "deadline.weekly_goal_ml = \"-5\" refused; expected a whole number of millilitres from 1 (default: 7 × goal_ml)"),
        ("rituals.morning", "25:00", "rituals.morning = \"25:00\" refused; expected HH:MM from 00:00 to 23:59"),
        ("rituals.evening", "8pm", "rituals.evening = \"8pm\" refused; expected HH:MM from 00:00 to 23:59"),
        ("rituals.terrain", "hot", "rituals.terrain = \"hot\" refused; expected one of cold_deficient, cold_balanced, warm_excess, warm_deficient, warm_balanced, neutral_balanced, neutral_deficient, neutral_excess"),
        ("rituals.nickname", " ", "rituals.nickname = \" \" refused; expected a short name on one line (1 to 40 characters), e.g. Low Flame"),
        ("messages.pool", "a.txt", "messages.pool = \"a.txt\" refused; expected a key of sections 4–6: messages.enabled, messages.locale, deadline.enabled, deadline.period, deadline.hours_before, deadline.weekly_goal_ml, rituals.enabled, rituals.morning, rituals.evening, rituals.terrain, rituals.nickname"),
    ])
    func badValuesAreRefusedInOneLine(key: String, value: String, message: String) {
        var settings = ReminderSettings.rules()
        let before = settings
        do {
            try settings.apply(key: key, value: value)
            Issue.record("\(key) = \(value) was accepted")
        } catch {
            #expect(error.description == message)
            #expect(!error.description.contains("\n"))
        }
        #expect(settings == before)
    }

    @Test func unchangedSettingsRescheduleNothing() {
        var sim = Simulation(rules: .rules { $0.rituals.enabled = true; $0.rituals.terrain = .coldBalanced },
                             date: "2026-03-10", time: "07:00")
        let before = sim.state
        sim.updateRules({ _ in }, on: "2026-03-10", at: "07:00:30")
        #expect(sim.state == before)
    }
}
