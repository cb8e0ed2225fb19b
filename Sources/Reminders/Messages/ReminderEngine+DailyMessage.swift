// Section 4 of docs/reminders.md as a rule of the engine: a rolling window of non-repeating daily
// messages at 10:00, refilled on start and after every 10:00 tick when fewer than 2 remain, and
// whenever the messages' settings change.

import Timekeeping

extension ReminderEngine {
    /// Enabled, notifications on, and a sink that reaches a person (section 1: a rule that
    /// schedules ahead schedules nothing without one).
    var messagesActive: Bool {
        settings.notificationsEnabled && reminderSettings.messages.enabled && reminderSettings.personReachable
    }

    /// The fill: the messages still pending come back with their text for the current pool and
    /// locale (a new pool or locale changes what they say, never which days they cover), then the
    /// window is refilled if `refill` (start, a change of the messages' settings) asks for it, or
    /// if fewer than 2 came back (the limit cut the window, and there may be room now).
    /// Off, or with nobody to reach, none come back: "Off → cancel all".
    mutating func fillDailyMessages(keeping previous: [PendingNotification], at instant: WallInstant, today: LocalDay,
                                    refill: Bool) {
        guard messagesActive else { return }
        let kept = previous
            .filter { ReminderEngine.owningSection(of: $0) == 4 }
            .compactMap { DailyMessage.day(fromID: $0.id) }
            .compactMap { dailyMessage(for: $0) }
            .filter { $0.fireTime >= instant }  // one due right now is for the coming tick
        add(kept, rule: "Daily messages")
        if refill || kept.count < DailyMessage.refillBelow { refillDailyMessages(at: instant, today: today) }
    }

    /// "If fewer than 2 of these remain pending, schedule the next 7 days (skipping ids that
    /// exist)": today and the 6 days after it, each only if its 10:00 is still ahead.
    mutating func refillDailyMessages(at instant: WallInstant, today: LocalDay) {
        guard messagesActive else { return }
        guard state.centre.count(where: { ReminderEngine.owningSection(of: $0) == 4 }) < DailyMessage.refillBelow else { return }
        let missing = (0..<DailyMessage.windowDays)
            .map { today + $0 }
            .filter { state.centre.notification(withID: DailyMessage.id(for: $0)) == nil }
            .compactMap { dailyMessage(for: $0) }
            .filter { $0.fireTime > instant }
        add(missing, rule: "Daily messages")
    }

    /// The message of `day` at its 10:00.
    func dailyMessage(for day: LocalDay) -> PendingNotification? {
        let messages = reminderSettings.messages
        guard let body = DailyMessage.message(for: day, pool: messages.pool) else { return nil }
        return PendingNotification(id: DailyMessage.id(for: day), fireTime: calendar.instant(of: day, at: DailyMessage.time),
                                   kind: .dailyMessage, title: messages.locale.title, body: body,
                                   thread: DailyMessage.thread)
    }
}
