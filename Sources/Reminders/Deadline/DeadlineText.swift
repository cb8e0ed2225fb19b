// The deadline reminder's identifiers and strings (docs/reminders.md 5).

import Timekeeping

package enum DeadlineText {
    package static let dayTitle = "Still time today"
    package static let weekTitle = "Still time this week"
    static let thread = "deadline"

    /// `{remaining} to go before midnight.`: the remainder rounded and formatted like a hydration
    /// reminder's deficit (docs/reminders.md 2.3), but never shown below `50ml`.
    package static func body(remainingML: Int) -> String {
        let shown = HydrationText.roundedToFifty(remainingML) < 50 ? "50ml" : HydrationText.volume(remainingML)
        return "\(shown) to go before midnight."
    }

    /// `deadline-{day|week}-{YYYY-MM-DD}` of the period's last day.
    package static func id(period: String, lastDay: LocalDay) -> String { "deadline-\(period)-\(lastDay)" }

    static func id(_ habit: DeadlineHabit, lastDay: LocalDay) -> String { id(period: habit.rawValue, lastDay: lastDay) }

    static func title(_ habit: DeadlineHabit) -> String { habit == .day ? dayTitle : weekTitle }
}
