// What `status` shows of the hydration rules (docs/reminders.md 2.6): the urgency, the displayed
// deficit, `Reminders Today: 3/12` (or `3` with the limit off) and the pending count.

package struct HydrationStatus: Equatable, Sendable {
    package let pace: Pace
    /// Reminders delivered this reminder day (0 once a reset boundary has passed, even before the
    /// engine's next evaluation applies it).
    package let remindersSentToday: Int
    package let dailyLimit: Bool
    /// Pending notifications of every rule (the seed's badge).
    package let pendingCount: Int

    package var urgency: Urgency { pace.urgency }
    /// `On Track`, `Time to Hydrate` or `Overdue`.
    package var urgencyText: String { pace.urgency.displayName }
    package var displayedDeficitML: Int { pace.displayedDeficitML }
    /// `Reminders Today: 3/12` with the limit on, `Reminders Today: 3` with it off.
    package var remindersTodayText: String {
        dailyLimit ? "Reminders Today: \(remindersSentToday)/\(HydrationSettings.maxRemindersPerDay)"
                   : "Reminders Today: \(remindersSentToday)"
    }
}
