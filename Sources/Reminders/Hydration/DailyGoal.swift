// The person's daily goal (docs/design.md 3.7): what the reminders, the page, the day's progress,
// the metrics and Home Assistant measure a day against. It is not the bottle's goal (`BottleGoal`,
// what the bottle shows on its display, 1000–4000 ml): a person may aim at 5000 ml a day from a
// bottle that shows at most 4000. Every surface that takes a daily goal (`setup --goal`,
// `config set daily_goal_ml`, the page's form, `POST /api/v1/commands`'s `daily_goal`) checks it here,
// so they accept and refuse the same numbers with the same line.

package enum DailyGoal {
    /// The daily goals a person may set: up to 20 litres, the most a day's drinking can sensibly be.
    package static let rangeML: ClosedRange<Int> = 1...20000
    /// The goal of a person who set none and whose bottle has reported none.
    package static let defaultML = 2500

    /// `1–20000 ml`, for messages.
    package static var rangeText: String { "\(rangeML.lowerBound)–\(rangeML.upperBound) ml" }

    /// The one check of a daily goal a person asks for: nil when it is one, else why not in one
    /// line naming the range.
    package static func refusal(_ goal: Int) -> String? {
        rangeML.contains(goal) ? nil : "a daily goal of \(goal) ml is outside \(rangeText): give \(rangeML.lowerBound) to \(rangeML.upperBound) ml"
    }
}
