// The Linux notification centre of docs/reminders.md 1: the pending notifications the rules scheduled
// ahead, with the phone platform's limit of 64, replacement by id and "cancel all". A value: the
// engine owns it inside `ReminderState`, so it is saved and restored with the rest of the state.
//
// A repeating schedule occurrence (section 3) is one pending notification: when it fires, the
// rule that owns it (its `thread`) adds the next occurrence under the same id, so it counts once
// against the limit, as a repeating trigger does on the phone.

import Timekeeping

package struct NotificationCentre: Equatable, Sendable {
    /// The phone platform's limit, kept so that the rolling-window rules behave the same.
    package static let limit = 64

    /// What became of a notification handed to `schedule`.
    package enum ScheduleOutcome: Equatable, Sendable {
        case added
        /// A pending notification with the same id was replaced.
        case replaced
        /// Refused: 64 are pending already. The rule schedules nothing more and logs why.
        case refusedAtLimit
    }

    /// The pending notifications, in the order they were first added.
    package private(set) var pending: [PendingNotification] = []

    package init() {}

    package var count: Int { pending.count }

    /// The earliest fire time, so the caller knows when to call the engine between ticks.
    package var nextFireTime: WallInstant? { pending.map(\.fireTime).min() }

    package func notification(withID id: String) -> PendingNotification? {
        pending.first { $0.id == id }
    }

    /// Adds `notification`, replacing a pending one with its id (which does not need a free slot).
    package mutating func schedule(_ notification: PendingNotification) -> ScheduleOutcome {
        if let index = pending.firstIndex(where: { $0.id == notification.id }) {
            pending[index] = notification
            return .replaced
        }
        guard pending.count < NotificationCentre.limit else { return .refusedAtLimit }
        pending.append(notification)
        return .added
    }

    /// Removes the one with `id`; true if there was one.
    @discardableResult
    package mutating func remove(id: String) -> Bool {
        guard let index = pending.firstIndex(where: { $0.id == id }) else { return false }
        pending.remove(at: index)
        return true
    }

    /// Removes every pending notification of `kind`; returns how many.
    @discardableResult
    package mutating func removeAll(kind: NotificationKind) -> Int {
        let before = pending.count
        pending.removeAll { $0.kind == kind }
        return before - pending.count
    }

    /// Removes and returns, in the order they were added, every pending notification that
    /// satisfies `predicate` (a rule taking back its own before it fills again).
    @discardableResult
    package mutating func removeAll(where predicate: (PendingNotification) -> Bool) -> [PendingNotification] {
        let removed = pending.filter(predicate)
        if !removed.isEmpty { pending.removeAll(where: predicate) }
        return removed
    }

    /// How many pending notifications satisfy `predicate`.
    package func count(where predicate: (PendingNotification) -> Bool) -> Int {
        pending.reduce(0) { $0 + (predicate($1) ? 1 : 0) }
    }

    /// "Cancel all": the master switch went off.
    package mutating func cancelAll() {
        pending.removeAll()
    }

    /// Removes and returns, in delivery order, every notification due at `instant` (fire time at
    /// or before it): earlier ones first, and at one instant in section order, then by id.
    package mutating func takeDue(at instant: WallInstant) -> [PendingNotification] {
        takeDue(at: instant) { _ in true }
    }

    /// `takeDue(at:)` restricted to the notifications `eligible` accepts; the others stay.
    mutating func takeDue(at instant: WallInstant, where eligible: (PendingNotification) -> Bool) -> [PendingNotification] {
        guard pending.contains(where: { $0.fireTime <= instant && eligible($0) }) else { return [] }
        let isDue: (PendingNotification) -> Bool = { $0.fireTime <= instant && eligible($0) }
        let due = pending.filter(isDue)
        pending.removeAll(where: isDue)
        return due.sorted(by: PendingNotification.deliversBefore)
    }
}

/// Stored as the plain array of pending notifications. A stored list that repeats an id keeps
/// the last one, as adding them in order would.
extension NotificationCentre: Codable {
    package init(from decoder: any Decoder) throws {
        let stored = try decoder.singleValueContainer().decode([PendingNotification].self)
        for notification in stored {
            if let index = pending.firstIndex(where: { $0.id == notification.id }) {
                pending[index] = notification
            } else {
                pending.append(notification)
            }
        }
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(pending)
    }
}
