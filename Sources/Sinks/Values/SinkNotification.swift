// A notification as the sinks see it (docs/reminders.md 1): plain values, so that this module does
// not depend on the reminder engine. The engine builds one when a pending notification fires.

import Timekeeping

/// A button on a notification (docs/reminders.md 1, "Actions"): `done`, `did-this`, `start-ritual`.
package struct SinkAction: Sendable, Equatable, Hashable {
    /// What comes back in `SinkCommand.action` when the person taps it, e.g. `did-this`.
    package var id: String
    /// What the person sees, e.g. `Did This`.
    package var label: String

    package init(id: String, label: String) {
        self.id = id
        self.label = label
    }
}

/// How insistent a notification is. The raw values are ntfy's priorities (1 = min … 5 = max),
/// which every other sink maps onto its own scale.
package enum SinkPriority: Int, Sendable, Equatable, Comparable, CaseIterable, Codable {
    case min = 1
    case low = 2
    case normal = 3
    case high = 4
    case urgent = 5

    package static func < (lhs: SinkPriority, rhs: SinkPriority) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The priority a kind gets when the engine does not say: device alerts and deadlines are
    /// `high`, everything else `normal`. The engine passes `high` for an overdue reminder.
    package static func suggested(forKind kind: String) -> SinkPriority {
        switch kind {
        case SinkNotification.Kind.lowBattery, SinkNotification.Kind.deadline: return .high
        default: return .normal
        }
    }
}

package struct SinkNotification: Sendable, Equatable {
    /// The kinds of docs/design.md 3.4 (`notification` event). Sinks accept any string; these are the
    /// ones they know how to decorate (tags, icons, Home Assistant event types).
    package enum Kind {
        package static let reminder = "reminder"
        package static let backOnTrack = "back_on_track"
        package static let goalReached = "goal_reached"
        package static let lowBattery = "low_battery"
        package static let scheduled = "scheduled"
        package static let dailyMessage = "daily_message"
        package static let deadline = "deadline"
        package static let ritual = "ritual"
        package static let test = "test"
        /// Start Ritual was pressed (docs/reminders.md 6): the ritual's text again, as the bridge's
        /// "open the ritual" — a desktop notification and an MQTT event Home Assistant can act on.
        package static let ritualStarted = "ritual_started"

        package static let all = [reminder, backOnTrack, goalReached, lowBattery, scheduled, ritualStarted,
                                 dailyMessage, deadline, ritual, test]
    }

    /// Unique per notification, e.g. `hydration-3` or `ritual-morning-2026-11-22`; actions
    /// come back with it.
    package var id: String
    package var kind: String
    package var title: String
    package var body: String
    /// When it fired, UTC seconds since 1970.
    package var time: WallInstant
    package var actions: [SinkAction]
    package var priority: SinkPriority
    /// The bottle whose person it is for (its serial or address), where a bridge has several;
    /// nil: the bridge's bottle.
    package var bottle: String?

    package init(id: String, kind: String, title: String, body: String, time: WallInstant,
                actions: [SinkAction] = [], priority: SinkPriority? = nil, bottle: String? = nil) {
        self.bottle = bottle
        self.id = id
        self.kind = kind
        self.title = title
        self.body = body
        self.time = time
        self.actions = actions
        self.priority = priority ?? SinkPriority.suggested(forKind: kind)
    }
}
