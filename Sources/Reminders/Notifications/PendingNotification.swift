// A notification waiting for its time (docs/reminders.md 1), and the record of one delivered.

import Timekeeping

/// A notification the centre will deliver at `fireTime`, once.
package struct PendingNotification: Codable, Equatable, Sendable {
    /// Unique among pending notifications; adding one with an existing id replaces it.
    package var id: String
    /// UTC epoch seconds.
    package var fireTime: WallInstant
    package var kind: NotificationKind
    package var title: String
    package var body: String
    package var actions: [NotificationAction]
    /// The rule that made it (e.g. a schedule id), so that rule can find and re-arm its own.
    package var thread: String?

    package init(id: String, fireTime: WallInstant, kind: NotificationKind, title: String, body: String,
                actions: [NotificationAction] = [], thread: String? = nil) {
        self.id = id
        self.fireTime = fireTime
        self.kind = kind
        self.title = title
        self.body = body
        self.actions = actions
        self.thread = thread
    }

    private enum CodingKeys: String, CodingKey {
        case id, kind, title, body, actions, thread
        case fireTime = "fire_time"
    }

    /// Delivery order of docs/reminders.md 0: earlier first; at one instant, section order, then id.
    static func deliversBefore(_ a: PendingNotification, _ b: PendingNotification) -> Bool {
        if a.fireTime != b.fireTime { return a.fireTime < b.fireTime }
        if a.kind.section != b.kind.section { return a.kind.section < b.kind.section }
        return a.id < b.id
    }
}

/// One notification handed to the sinks: what the caller gives every enabled sink and appends to
/// the delivered log (id, kind, time, text).
package struct Delivery: Codable, Equatable, Sendable {
    package let id: String
    package let kind: NotificationKind
    /// When it was delivered (UTC epoch seconds): the instant of the engine call that fired it.
    package let time: WallInstant
    package let title: String
    package let body: String
    package let actions: [NotificationAction]
    package let thread: String?

    package init(id: String, kind: NotificationKind, time: WallInstant, title: String, body: String,
                actions: [NotificationAction] = [], thread: String? = nil) {
        self.id = id
        self.kind = kind
        self.time = time
        self.title = title
        self.body = body
        self.actions = actions
        self.thread = thread
    }

    init(_ pending: PendingNotification, at time: WallInstant) {
        self.init(id: pending.id, kind: pending.kind, time: time, title: pending.title, body: pending.body,
                  actions: pending.actions, thread: pending.thread)
    }
}
