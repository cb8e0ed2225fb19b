// The kinds of notification (docs/design.md 3.4) and the docs/reminders.md section each belongs to, which
// orders deliveries due at the same instant (docs/reminders.md 0, "Same minute").

package enum NotificationKind: String, Codable, Sendable, CaseIterable {
    case reminder
    case backOnTrack = "back_on_track"
    case goalReached = "goal_reached"
    case lowBattery = "low_battery"
    case scheduled
    case dailyMessage = "daily_message"
    case deadline
    case ritual
    case test

    /// The docs/reminders.md section of the rule that makes it. The test notification belongs to the
    /// engine itself (section 1), so it comes first when it shares an instant with another.
    package var section: Int {
        switch self {
        case .test: return 1
        case .reminder, .backOnTrack, .goalReached, .lowBattery: return 2
        case .scheduled: return 3
        case .dailyMessage: return 4
        case .deadline: return 5
        case .ritual: return 6
        }
    }

    /// Sections 3–6 schedule at whole local minutes and are delivered by the tick of their minute,
    /// where their rule can decide at fire time (a suppression, a deadline already met) and the
    /// same-minute order holds; `ReminderEngine.fireDue(at:)` between ticks leaves them.
    package var firesOnTick: Bool { section >= 3 }
}

/// A button on a notification (docs/reminders.md 1, "Actions").
package struct NotificationAction: Codable, Equatable, Hashable, Sendable {
    package let id: String
    package let label: String

    package init(id: String, label: String) {
        self.id = id
        self.label = label
    }

    /// On scheduled intake reminders of manual types: logs that intake (section 3).
    package static let done = NotificationAction(id: "done", label: "Done")
    /// On rituals (section 6).
    package static let didThis = NotificationAction(id: "did-this", label: "Did This")
    package static let startRitual = NotificationAction(id: "start-ritual", label: "Start Ritual")
}
