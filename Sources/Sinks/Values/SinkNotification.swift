// A notification as the sinks see it (docs/reminders.md 1): plain values, so that this module does
// not depend on the reminder engine. The engine builds one when a pending notification fires.

import Timekeeping

/// A button on a notification (docs/reminders.md 1, "Actions"): `done`, `did-this`, `start-ritual`.
public struct SinkAction: Sendable, Equatable, Hashable {
    /// What comes back in `SinkCommand.action` when the person taps it, e.g. `did-this`.
    public var id: String
    /// What the person sees, e.g. `Did This`.
    public var label: String

    public init(id: String, label: String) {
        self.id = id
        self.label = label
    }
}

/// How insistent a notification is. The raw values are ntfy's priorities (1 = min … 5 = max),
/// which every other sink maps onto its own scale.
public enum SinkPriority: Int, Sendable, Equatable, Comparable, CaseIterable, Codable {
    case min = 1
    case low = 2
    case normal = 3
    case high = 4
    case urgent = 5

    public static func < (lhs: SinkPriority, rhs: SinkPriority) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The priority a kind gets when the engine does not say: device alerts and deadlines are
    /// `high`, everything else `normal`. The engine passes `high` for an overdue reminder.
    public static func suggested(forKind kind: String) -> SinkPriority {
        switch kind {
        case SinkNotification.Kind.lowBattery, SinkNotification.Kind.deadline: return .high
        default: return .normal
        }
    }
}

public struct SinkNotification: Sendable, Equatable {
    /// The kinds of docs/design.md 3.4 (`notification` event). Sinks accept any string; these are the
    /// ones they know how to decorate (tags, icons, Home Assistant event types).
    public enum Kind {
        public static let reminder = "reminder"
        public static let backOnTrack = "back_on_track"
        public static let goalReached = "goal_reached"
        public static let lowBattery = "low_battery"
        public static let scheduled = "scheduled"
        public static let dailyMessage = "daily_message"
        public static let deadline = "deadline"
        public static let ritual = "ritual"
        public static let test = "test"
        /// Start Ritual was pressed (docs/reminders.md 6): the ritual's text again, as the bridge's
        /// "open the ritual" — a desktop notification and an MQTT event Home Assistant can act on.
        public static let ritualStarted = "ritual_started"

        public static let all = [reminder, backOnTrack, goalReached, lowBattery, scheduled, ritualStarted,
                                 dailyMessage, deadline, ritual, test]
    }

    /// Unique per notification, e.g. `hydration-3` or `ritual-morning-2026-11-22`; actions
    /// come back with it.
    public var id: String
    public var kind: String
    public var title: String
    public var body: String
    /// When it fired, UTC seconds since 1970.
    public var time: WallInstant
    public var actions: [SinkAction]
    public var priority: SinkPriority
    /// The bottle whose person it is for (its serial or address), where a bridge has several;
    /// nil: the bridge's bottle.
    public var bottle: String?

    public init(id: String, kind: String, title: String, body: String, time: WallInstant,
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
