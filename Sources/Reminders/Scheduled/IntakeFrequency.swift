// The frequencies of docs/reminders.md 3's table, and the occurrence slots each one makes from the
// first occurrence F: wall-clock offsets for the daily ones, weekday offsets for the weekly ones,
// day-number offsets for the monthly ones.

package enum IntakeFrequency: String, CaseIterable, Codable, Sendable {
    case daily
    case twiceDaily = "twice-daily"
    case threeTimesDaily = "three-times-daily"
    case fourTimesDaily = "four-times-daily"
    case sixTimesDaily = "six-times-daily"
    case weekly
    case twiceWeekly = "twice-weekly"
    case threeTimesWeekly = "three-times-weekly"
    case fourTimesWeekly = "four-times-weekly"
    case monthly
    case twiceMonthly = "twice-monthly"
    case threeTimesMonthly = "three-times-monthly"

    /// How each occurrence repeats.
    package enum Period: String, Sendable {
        case daily, weekly, monthly
    }

    package var period: Period {
        switch self {
        case .daily, .twiceDaily, .threeTimesDaily, .fourTimesDaily, .sixTimesDaily: return .daily
        case .weekly, .twiceWeekly, .threeTimesWeekly, .fourTimesWeekly: return .weekly
        case .monthly, .twiceMonthly, .threeTimesMonthly: return .monthly
        }
    }

    /// The offsets from F, in the period's unit: minutes of wall clock (daily), days of the week
    /// (weekly), day numbers (monthly).
    package var offsets: [Int] {
        switch self {
        case .daily, .weekly, .monthly: return [0]
        case .twiceDaily: return [0, 720]
        case .threeTimesDaily: return [0, 360, 720]
        case .fourTimesDaily: return [0, 240, 480, 720]
        case .sixTimesDaily: return [0, 150, 300, 450, 600, 750]
        case .twiceWeekly: return [0, 3]
        case .threeTimesWeekly: return [0, 2, 4]
        case .fourTimesWeekly: return [0, 2, 4, 6]
        case .twiceMonthly: return [0, 15]
        case .threeTimesMonthly: return [0, 10, 20]
        }
    }

    /// Monthly: the largest day of the month F may have, so that F's day plus the largest offset
    /// stays within 31 (docs/reminders.md 3: a later `first` is refused with this day).
    package var largestFirstDay: Int { period == .monthly ? 31 - offsets.max()! : 31 }

    /// Every frequency's name, comma-separated, for error messages.
    package static var choices: String { allCases.map(\.rawValue).joined(separator: ", ") }

    /// The frequency named `text` (case-insensitive, trimmed), or nil.
    package init?(name text: String) {
        self.init(rawValue: text.trimmingWhitespace().lowercased())
    }
}
