// The bottle's goal (docs/protocol.md 3.2, docs/design.md 3.7): what its display shows, 1000–4000
// ml as the firmware stores it; anything else is refused with one line naming the range, and
// clamped as the bottle clamps it where the bridge asks it to show a daily goal.

import AquavateProtocol
import Testing

@Suite struct BottleGoalTests {
    @Test func itsRangeIsTheFirmwares() {
        #expect(BottleGoal.rangeML == 1000...4000)
        for goal in [1000, 2210, 2500, 4000] { #expect(BottleGoal.holds(goal) && BottleGoal.refusal(goal) == nil, "\(goal)") }
        for goal in [-1, 0, 1, 999, 4001, 5000, 20000] { #expect(!BottleGoal.holds(goal) && BottleGoal.refusal(goal) != nil, "\(goal)") }
    }

    @Test func aRefusalIsOneLineNamingTheRange() {
        #expect(BottleGoal.refusal(5000) == "a goal of 5000 ml is outside what the bottle holds: give 1000 to 4000 ml")
    }

    @Test func aGoalItCannotHoldIsClampedToTheNearestItCan() {
        #expect(BottleGoal.clamped(5000) == 4000 && BottleGoal.clamped(1) == 1000 && BottleGoal.clamped(2300) == 2300)
    }
}
