// The reminder engine's state as the history keeps it (History's SavedReminders: typed rows per
// bottle) and back: the engine's types (urgencies, notification kinds) are this side's to name.

import History
import Reminders
import Timekeeping

extension ReminderState {
    /// The state as rows (their bottle and order are the history's to set).
    var saved: SavedReminders {
        SavedReminders(
            counters: ReminderCounters(
                reminderDay: reminderDay, remindersSentToday: remindersSentToday,
                lastNotifiedUrgency: lastNotifiedUrgency?.rawValue, remindedSinceOnTrack: remindedSinceOnTrack,
                lastUrgency: lastUrgency.rawValue, goalReachedDay: goalReachedDay, lastLowBattery: lastLowBattery,
                lowBatteryAlertDay: lowBatteryAlertDay, reminderSequence: reminderSequence,
                backOnTrackSequence: backOnTrackSequence, rulesDay: rulesDay, ritualStreak: ritualStreak),
            pending: centre.pending.map {
                SavedPendingNotification(id: $0.id, fireTime: $0.fireTime, kind: $0.kind.rawValue, title: $0.title,
                                         body: $0.body, thread: $0.thread)
            },
            actions: centre.pending.flatMap { notification in
                notification.actions.map { SavedNotificationAction(notificationId: notification.id, actionId: $0.id, label: $0.label) }
            },
            intakes: intakeLog.map { SavedIntake(type: $0.type, time: $0.time) },
            rituals: ritualCompletions.map { SavedRitualCompletion(day: $0.day, time: $0.time) })
    }

    /// The state the rows keep. A value this version does not know (an urgency, a notification
    /// kind) takes the fresh state's value, or leaves out the pending notification it names.
    init(saved: SavedReminders) {
        self.init()
        let counters = saved.counters
        reminderDay = counters.reminderDay
        remindersSentToday = counters.remindersSentToday
        lastNotifiedUrgency = counters.lastNotifiedUrgency.flatMap(Urgency.init(rawValue:))
        remindedSinceOnTrack = counters.remindedSinceOnTrack
        lastUrgency = Urgency(rawValue: counters.lastUrgency) ?? .onTrack
        goalReachedDay = counters.goalReachedDay
        lastLowBattery = counters.lastLowBattery
        lowBatteryAlertDay = counters.lowBatteryAlertDay
        reminderSequence = counters.reminderSequence
        backOnTrackSequence = counters.backOnTrackSequence
        rulesDay = counters.rulesDay
        ritualStreak = counters.ritualStreak
        let actions = Dictionary(grouping: saved.actions, by: \.notificationId)
        for row in saved.pending {
            guard let kind = NotificationKind(rawValue: row.kind) else { continue }
            _ = centre.schedule(PendingNotification(
                id: row.id, fireTime: row.fireTime, kind: kind, title: row.title, body: row.body,
                actions: (actions[row.id] ?? []).map { NotificationAction(id: $0.actionId, label: $0.label) }, thread: row.thread))
        }
        intakeLog = saved.intakes.map { IntakeLogEntry(type: $0.type, time: $0.time) }
        ritualCompletions = saved.rituals.map { RitualCompletion(day: $0.day, time: $0.time) }
    }
}
