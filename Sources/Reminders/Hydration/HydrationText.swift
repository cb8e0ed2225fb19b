// The anchor app's exact strings (docs/reminders.md 2.3–2.5) and the identifiers of section 2's
// notifications. Kept together so that a change of wording is one place and one test.

import Foundation

package enum HydrationText {
    package static let reminderTitle = "Hydration Reminder"
    package static let backOnTrackTitle = "Back On Track!"
    package static let backOnTrackBody = "Nice work catching up on your hydration."
    package static let backOnTrackLogLine = "[HydrationReminder] Back on track!"
    package static let goalReachedTitle = "Goal Reached! 💧"
    package static let goalReachedBody = "Good job! You've hit your daily hydration goal."
    package static let lowBatteryTitle = "Low Battery"

    /// The reminder body for an urgency above on_track and a displayed deficit.
    package static func reminderBody(urgency: Urgency, displayedDeficitML: Int) -> String {
        let amount = volume(displayedDeficitML)
        switch urgency {
        case .overdue: return "You're falling behind! Drink \(amount) to catch up."
        case .attention, .onTrack: return "Time to hydrate! You're \(amount) behind pace."
        }
    }

    package static func lowBatteryBody(percent: Int) -> String {
        "Your Aquavate bottle battery is at \(percent)%. Please charge soon."
    }

    /// `X` of 2.3: the deficit rounded to the nearest 50 ml with integer division.
    package static func roundedToFifty(_ deficitML: Int) -> Int {
        let d = max(0, deficitML)
        return (d + 25) / 50 * 50
    }

    /// `{X}ml`, or from 1000 on `X/1000` through C's `printf("%.1fL")`. printf sees the double
    /// nearest X/1000, so the exact tie 1250 → 1.25 rounds to even (`1.2L`), while 1150 → 1.15,
    /// stored as 1.149999…, gives `1.1L` and 1050 → 1.05, stored as 1.050000…04, gives `1.1L`.
    package static func volume(_ deficitML: Int) -> String {
        let x = roundedToFifty(deficitML)
        if x < 1000 { return "\(x)ml" }
        return String(format: "%.1fL", Double(x) / 1000)
    }
}

/// Identifiers of section 2's notifications.
package enum HydrationID {
    /// `hydration-<n>`: one per reminder, `n` from the persisted sequence (1, 2, …).
    package static func reminder(_ sequence: Int) -> String { "hydration-\(sequence)" }
    /// `hydration-back-on-track-<n>`, its own persisted sequence.
    package static func backOnTrack(_ sequence: Int) -> String { "hydration-back-on-track-\(sequence)" }
    package static let goalReached = "hydration-goal-reached"
    /// Fixed: a second episode replaces the first on a sink that replaces by id.
    package static let lowBattery = "bottle-low-battery"
}
