// One occurrence of a schedule (docs/reminders.md 3): a wall-clock time that repeats daily, on one
// weekday, or on one day of the month. Each slot is one pending notification with the seed's
// identifier; when it fires, the rule arms the next occurrence under the same id, so a slot counts
// once against the limit of 64, like a repeating trigger on the phone.

import Timekeeping

package struct ScheduleSlot: Hashable, Sendable {
    package enum Recurrence: Hashable, Sendable {
        case daily
        /// 1 = Sunday ... 7 = Saturday.
        case weekly(weekday: Int)
        /// The configured day (up to 31); on a shorter month it falls on the month's last day.
        case monthly(day: Int)
    }

    package let scheduleID: String
    package let recurrence: Recurrence
    package let time: TimeOfDay

    static let threadPrefix = "schedule:"

    /// The seed's identifiers, hour and minute without zero padding: `reminder-{id}-{h}-{m}`,
    /// `reminder-{id}-w{weekday}-{h}-{m}`, `reminder-{id}-d{day}-{h}-{m}` (the configured day,
    /// `d31` also when it fires on 30 April).
    package var notificationID: String {
        let clock = "\(time.hour)-\(time.minute)"
        switch recurrence {
        case .daily: return "reminder-\(scheduleID)-\(clock)"
        case .weekly(let weekday): return "reminder-\(scheduleID)-w\(weekday)-\(clock)"
        case .monthly(let day): return "reminder-\(scheduleID)-d\(day)-\(clock)"
        }
    }

    /// Whether the slot has an occurrence on `day`. Decision (docs/reminders.md 3): a monthly day the
    /// month lacks (29–31) falls on its last day, never skipped.
    package func occurs(on day: LocalDay) -> Bool {
        switch recurrence {
        case .daily: return true
        case .weekly(let weekday): return day.weekday == weekday
        case .monthly(let configured): return day.day == min(configured, day.daysInMonth)
        }
    }

    /// The first occurrence strictly after `instant` and not before `notBefore` (the schedule's
    /// first occurrence). Dates are walked one by one from the local date of the later of the
    /// two; every slot occurs within 31 days, so the walk is short.
    func nextOccurrence(after instant: WallInstant, notBefore: WallInstant, calendar: LocalCalendar, clock: LocalClock) -> WallInstant? {
        let from = max(instant, notBefore)
        let startDay = clock.wallClockUncached(at: from).day
        for offset in 0...62 {
            let day = startDay + offset
            guard occurs(on: day) else { continue }
            let occurrence = calendar.instant(of: day, at: time)
            if occurrence > instant && occurrence >= notBefore { return occurrence }
        }
        return nil
    }

    /// This slot's occurrence on `day`, if it has one there.
    func occurrence(on day: LocalDay, calendar: LocalCalendar) -> WallInstant? {
        occurs(on: day) ? calendar.instant(of: day, at: time) : nil
    }
}
