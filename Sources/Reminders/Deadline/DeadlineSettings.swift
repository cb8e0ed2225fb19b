// The settings of docs/reminders.md 5 (`deadline.enabled`, `deadline.period`, `deadline.hours_before`,
// `deadline.weekly_goal_ml`).

package struct DeadlineSettings: Equatable, Sendable {
    /// `deadline.enabled`, default false.
    package var enabled: Bool
    /// `deadline.period`: which habits get a deadline reminder.
    package var period: DeadlinePeriod
    /// `deadline.hours_before`: 1–23, default 5 (daily: 19:00).
    package var hoursBefore: Int
    /// `deadline.weekly_goal_ml`; nil means 7 × the daily goal.
    package var weeklyGoalML: Int?

    package static let defaultHoursBefore = 5
    package static let hoursBeforeRange = 1...23
    /// What `deadline.weekly_goal_ml` may be.
    package static let weeklyGoalRangeML = 1...200000

    package init(enabled: Bool = false, period: DeadlinePeriod = .day,
                hoursBefore: Int = DeadlineSettings.defaultHoursBefore, weeklyGoalML: Int? = nil) {
        self.enabled = enabled
        self.period = period
        self.hoursBefore = hoursBefore
        self.weeklyGoalML = weeklyGoalML
    }

    /// The weekly target for a daily goal of `dailyGoalML`.
    package func weeklyTargetML(dailyGoalML: Int) -> Int { weeklyGoalML ?? 7 * dailyGoalML }

    /// `hours_before` as the rules use it: a stored value outside 1–23 (only a hand-edited
    /// database has one) is brought back into range rather than trusted.
    var effectiveHoursBefore: Int {
        min(max(hoursBefore, DeadlineSettings.hoursBeforeRange.lowerBound), DeadlineSettings.hoursBeforeRange.upperBound)
    }

    /// The periods with a habit under `period`.
    var habits: [DeadlineHabit] {
        guard enabled else { return [] }
        switch period {
        case .day: return [.day]
        case .week: return [.week]
        case .both: return [.day, .week]
        }
    }
}

/// `deadline.period`: `day` (default), `week` or `both`.
package enum DeadlinePeriod: String, CaseIterable, Codable, Sendable {
    case day, week, both
}

/// One habit: the daily goal over the local day, or the weekly goal over Monday 00:00 to Sunday
/// 24:00.
enum DeadlineHabit: String, Sendable {
    case day, week
}

extension DeadlineSettings: Codable {
    private enum CodingKeys: String, CodingKey {
        case enabled, period
        case hoursBefore = "hours_before"
        case weeklyGoalML = "weekly_goal_ml"
    }

    package init(from decoder: any Decoder) throws {
        let values = try decoder.container(keyedBy: CodingKeys.self)
        self.init(enabled: try values.decodeIfPresent(Bool.self, forKey: .enabled) ?? false,
                  period: try values.decodeIfPresent(DeadlinePeriod.self, forKey: .period) ?? .day,
                  hoursBefore: try values.decodeIfPresent(Int.self, forKey: .hoursBefore) ?? DeadlineSettings.defaultHoursBefore,
                  weeklyGoalML: try values.decodeIfPresent(Int.self, forKey: .weeklyGoalML))
    }

    package func encode(to encoder: any Encoder) throws {
        var values = encoder.container(keyedBy: CodingKeys.self)
        try values.encode(enabled, forKey: .enabled)
        try values.encode(period, forKey: .period)
        try values.encode(hoursBefore, forKey: .hoursBefore)
        try values.encodeIfPresent(weeklyGoalML, forKey: .weeklyGoalML)
    }
}
