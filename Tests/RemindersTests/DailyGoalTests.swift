// The person's daily goal has its own range, wider than what a bottle can show (docs/design.md
// 3.7): 5000 ml is a daily goal though no bottle shows it, and the one check says why a number is
// not one in a line naming the range.

import Reminders
import Testing

@Suite struct DailyGoalTests {
    @Test func itsRangeIsOneToTwentyLitres() {
        #expect(DailyGoal.rangeML == 1...20000)
        #expect(DailyGoal.defaultML == 2500 && HydrationSettings.defaultGoalML == DailyGoal.defaultML)
        for goal in [1, 999, 2500, 4001, 5000, 20000] { #expect(DailyGoal.refusal(goal) == nil, "\(goal)") }
        for goal in [Int.min, -1, 0, 20001, 1_000_001] { #expect(DailyGoal.refusal(goal) != nil, "\(goal)") }
    }

    @Test func aRefusalIsOneLineNamingTheRange() throws {
        let line = try #require(DailyGoal.refusal(25000))
        #expect(line == "a daily goal of 25000 ml is outside 1–20000 ml: give 1 to 20000 ml")
        #expect(!line.contains("\n"))
    }
}
