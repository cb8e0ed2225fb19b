// The settings of the reminder rules' sections 4–6 (docs/reminders.md; `messages.*`, `deadline.*`,
// `rituals.*`) as the one table (Setting.swift) reads them from text: each value set from its text
// in canonical form, each bad one refused in one line with the valid choices (docs/design.md 3.2),
// the ranges and choices being the rules' own.

import Foundation
import Reminders
@testable import Settings
import Testing

@Suite("Settings: the reminder rules' keys")
struct RuleSettingKeysTests {
    @Test("every key of sections 4–6 from its text")
    func everyKeyFromText() throws {
        var configuration = Configuration()
        for (key, value) in [("messages.enabled", "true"), ("messages.locale", "es"), ("deadline.enabled", " TRUE "),
                             ("deadline.period", "both"), ("deadline.hours_before", "23"), ("deadline.weekly_goal_ml", "15000"),
                             ("rituals.enabled", "true"), ("rituals.morning", "6:45"), ("rituals.evening", "21:30:00"),
                             ("rituals.terrain", "Warm_Balanced"), ("rituals.nickname", "  Still Water ")] {
            try configuration.applyOverride("\(key)=\(value)")
        }
        #expect(configuration[Setting.messagesEnabled] && configuration[Setting.messagesLocale] == .es)
        #expect(configuration[Setting.deadlineEnabled] && configuration[Setting.deadlinePeriod] == .both)
        #expect(configuration[Setting.deadlineHoursBefore] == 23 && configuration[Setting.weeklyGoalML] == 15_000)
        #expect(configuration[Setting.ritualsEnabled])
        #expect(configuration[Setting.ritualsMorning].minuteOfDay == 6 * 60 + 45)
        #expect(configuration[Setting.ritualsEvening].minuteOfDay == 21 * 60 + 30)
        #expect(configuration[Setting.ritualsTerrain] == .warmBalanced)
        #expect(configuration[Setting.ritualsNickname] == "Still Water")
        // Canonical text, as `config get` shows it: a choice in any case is kept as its option.
        #expect(configuration.value("deadline.enabled") == "true" && configuration.value("rituals.morning") == "06:45")
        #expect(configuration.value("rituals.terrain") == "warm_balanced" && configuration.value("rituals.nickname") == "Still Water")
    }

    @Test("a bad value is refused in one line with the valid choices", arguments: [
        ("messages.enabled", "maybe", "invalid value 'maybe' for messages.enabled: expected true or false"),
        ("messages.locale", "fr", "invalid value 'fr' for messages.locale: expected one of en, es"),
        ("deadline.period", "month", "invalid value 'month' for deadline.period: expected one of day, week, both"),
        ("deadline.hours_before", "0", "invalid value '0' for deadline.hours_before: expected a whole number from 1 to 23"),
        ("deadline.hours_before", "24", "invalid value '24' for deadline.hours_before: expected a whole number from 1 to 23"),
        ("deadline.weekly_goal_ml", "-5", "invalid value '-5' for deadline.weekly_goal_ml: expected a whole number from 1 to 200000"),
        ("rituals.morning", "25:00", "invalid value '25:00' for rituals.morning: expected a time HH:MM (00:00 to 23:59)"),
        ("rituals.evening", "8pm", "invalid value '8pm' for rituals.evening: expected a time HH:MM (00:00 to 23:59)"),
        ("rituals.terrain", "hot", "invalid value 'hot' for rituals.terrain: expected one of cold_deficient, cold_balanced, warm_excess, warm_deficient, warm_balanced, neutral_balanced, neutral_deficient, neutral_excess"),
        ("rituals.terrain", "", "invalid value '' for rituals.terrain: expected one of cold_deficient, cold_balanced, warm_excess, warm_deficient, warm_balanced, neutral_balanced, neutral_deficient, neutral_excess"),
        ("rituals.nickname", " ", "invalid value ' ' for rituals.nickname: expected a short name on one line (1 to 40 characters), e.g. Low Flame"),
        ("rituals.nickname", String(repeating: "x", count: 41), "invalid value '\(String(repeating: "x", count: 41))' for rituals.nickname: expected a short name on one line (1 to 40 characters), e.g. Low Flame"),
        ("rituals.nickname", "Low\nFlame", "invalid value 'Low\nFlame' for rituals.nickname: expected a short name on one line (1 to 40 characters), e.g. Low Flame"),
    ])
    func badValuesAreRefused(key: String, value: String, message: String) throws {
        let entry = try SettingCatalog.requireKey(key)
        do {
            let accepted = try entry.normalize(value)
            Issue.record("\(key) = \(value) was accepted as \(accepted)")
        } catch {
            #expect(error.description == message)
        }
    }

    @Test("the ranges and choices are the rules' own")
    func rangesAreTheRules() {
        #expect(Setting.deadlineHoursBefore.entry.kind == .integer(DeadlineSettings.hoursBeforeRange))
        #expect(Setting.weeklyGoalML.entry.kind == .integer(DeadlineSettings.weeklyGoalRangeML))
        #expect(Setting.ritualsTerrain.entry.kind == .choice(RitualTerrain.allCases.map(\.rawValue)))
        #expect(Setting.ritualsNickname.entry.kind == .shortName(characters: RitualSettings.nicknameLengthRange, example: "Low Flame"))
        #expect(Setting.messagesLocale.entry.kind == .choice(MessageLocale.allCases.map(\.rawValue)))
        #expect(Setting.deadlinePeriod.entry.kind == .choice(DeadlinePeriod.allCases.map(\.rawValue)))
    }

    @Test("a nickname of 40 characters fits, trimmed of spaces and a final newline")
    func nicknameLimits() throws {
        let entry = try SettingCatalog.requireKey("rituals.nickname")
        #expect(try entry.normalize(String(repeating: "é", count: 40)) == String(repeating: "é", count: 40))
        #expect(try entry.normalize("Low Flame\n") == "Low Flame")
    }
}
