// The pace at one instant (docs/reminders.md 2.2): how much the owner should have drunk by now, how
// far behind they are, and the urgency that follows. Integer arithmetic throughout, exactly as
// written there, so that two implementations agree to the millilitre.

package struct Pace: Equatable, Sendable {
    /// Known drinks of the local calendar day (docs/reminders.md 0).
    package let dayTotalML: Int
    package let goalML: Int
    /// `expected(t)`.
    package let expectedML: Int
    /// `deficit(t) = expected(t) − day_total(t)`; negative when ahead.
    package let deficitML: Int
    package let urgency: Urgency

    /// `max(0, deficit)`: what `status` and the reminder texts show.
    package var displayedDeficitML: Int { max(0, deficitML) }

    package init(minuteOfDay: Int, dayTotalML: Int, settings: HydrationSettings) {
        let goal = Pace.saneGoal(settings.goalML)
        let expected = Pace.expected(minuteOfDay: minuteOfDay, goalML: goal,
                                     activeStartMinute: settings.activeStartMinute,
                                     activeEndMinute: settings.activeEndMinute)
        let deficit = expected - dayTotalML
        self.dayTotalML = dayTotalML
        self.goalML = goal
        self.expectedML = expected
        self.deficitML = deficit
        self.urgency = Pace.urgency(dayTotalML: dayTotalML, goalML: goal, deficitML: deficit)
    }

    /// `expected(t)`: 0 before `active_start`; the goal at or after `active_end`; otherwise
    /// `floor(elapsed_minutes × goal / window_minutes)`. Checked in this order, so a window
    /// with `active_end ≤ active_start` never divides (it is all quiet: 0 before the start, the
    /// goal from it on).
    package static func expected(minuteOfDay: Int, goalML: Int, activeStartMinute: Int, activeEndMinute: Int) -> Int {
        // Clamping to one day changes no comparison with a minute of the day; it only keeps
        // nonsense settings from overflowing the product.
        let start = min(max(activeStartMinute, 0), 1440)
        let end = min(max(activeEndMinute, 0), 1440)
        let minute = min(max(minuteOfDay, 0), 1439)
        let goal = saneGoal(goalML)
        if minute < start { return 0 }
        if minute >= end { return goal }
        return (minute - start) * goal / (end - start)
    }

    /// on_track when the goal is met or nothing is owed; overdue from `floor(goal × 0.20)` behind;
    /// attention in between.
    package static func urgency(dayTotalML: Int, goalML: Int, deficitML: Int) -> Urgency {
        if dayTotalML >= goalML || deficitML <= 0 { return .onTrack }
        if deficitML >= overdueThreshold(goalML: goalML) { return .overdue }
        return .attention
    }

    /// `floor(goal × 0.20)` in integers (`overdue_fraction = 0.20` = 20/100).
    package static func overdueThreshold(goalML: Int) -> Int {
        saneGoal(goalML) * 20 / 100
    }

    /// The goal as the arithmetic can take it: a nonsense value must not overflow or trap.
    static func saneGoal(_ goal: Int) -> Int { min(max(goal, 0), 1_000_000_000) }
}
