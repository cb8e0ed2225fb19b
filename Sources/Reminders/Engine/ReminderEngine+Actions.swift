// Actions invoked on delivered notifications (docs/reminders.md 1, "Actions"): a sink that supports
// them (desktop, MQTT command topic, HTTP push buttons) or a capture's `action` op reports the
// notification's id and the action's id, and the engine records it. Done logs the schedule's
// intake; Did This records the ritual as completed for the local day of the tap; Start Ritual asks
// the caller to open the status view (or publish an event). The outcome says what the caller has
// left to do.

import Timekeeping

/// What an invoked action did, and what it leaves to the caller.
package enum ActionOutcome: Equatable, Sendable {
    /// Done on a scheduled reminder: this manual intake was logged (the caller may also store it
    /// in its history database).
    case intakeLogged(type: String, at: WallInstant)
    /// Did This on a ritual: `ritual_completed_at` for the local `day` of the tap, kept in the
    /// state; the caller records it in its history database. No window opens.
    case ritualCompleted(day: LocalDay, at: WallInstant)
    /// Start Ritual: the caller opens the status view where a desktop exists, or publishes an
    /// event (MQTT).
    case startRitual(notificationID: String)
}

/// An invoked action the engine cannot take.
package enum NotificationActionError: Error, Equatable, CustomStringConvertible {
    /// No rule made a notification with this id (or its schedule is gone).
    case unknownNotification(String)
    /// The notification does not offer this action.
    case actionNotOffered(notificationID: String, actionID: String, offered: [String])

    package var description: String {
        switch self {
        case .unknownNotification(let id):
            return "no notification \"\(id)\" takes actions; expected the id of a scheduled intake reminder (reminder-…) or a ritual (ritual-…)"
        case .actionNotOffered(let id, let action, let offered):
            let choices = offered.isEmpty ? "none" : offered.joined(separator: ", ")
            return "notification \"\(id)\" has no action \"\(action)\"; expected one of: \(choices)"
        }
    }
}

extension ReminderEngine {
    /// Records `actionID` invoked on the delivered (or still pending) notification
    /// `notificationID` at `instant`.
    package mutating func actionInvoked(notificationID: String, actionID: String,
                                       at instant: WallInstant) throws(NotificationActionError) -> ActionOutcome {
        if RitualText.parse(id: notificationID) != nil {
            switch actionID {
            case NotificationAction.didThis.id:
                let day = clock.wallClockUncached(at: instant).day
                state.ritualCompletions.removeAll { $0.day == day }
                state.ritualCompletions.append(RitualCompletion(day: day, time: instant))
                journal.append("Did This on \(notificationID): ritual completed for \(day)")
                return .ritualCompleted(day: day, at: instant)
            case NotificationAction.startRitual.id:
                journal.append("Start Ritual on \(notificationID)")
                return .startRitual(notificationID: notificationID)
            default:
                throw .actionNotOffered(notificationID: notificationID, actionID: actionID,
                                        offered: [NotificationAction.didThis.id, NotificationAction.startRitual.id])
            }
        }
        guard let schedule = reminderSettings.schedules.first(where: { schedule in
            schedule.slots.contains { $0.notificationID == notificationID }
        }) else { throw .unknownNotification(notificationID) }
        guard case .manual(let type) = schedule.intake, actionID == NotificationAction.done.id else {
            throw .actionNotOffered(notificationID: notificationID, actionID: actionID,
                                    offered: schedule.intake.isManual ? [NotificationAction.done.id] : [])
        }
        state.intakeLog.append(IntakeLogEntry(type: type, time: instant))
        pruneIntakeLog(at: instant)
        journal.append("Done on \(notificationID): \(type) logged")
        return .intakeLogged(type: type, at: instant)
    }
}
