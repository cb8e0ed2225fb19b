// Local dates and times of day turned into instants, by Foundation's calendar in the configured
// zone (docs/reminders.md 0: DST is the calendar library's business, never 3600 s added by hand).
//
// docs/reminders.md 3: "A local time that a DST change skips fires at the first instant after the gap;
// one it repeats fires once, the first time." Foundation's date from a date's and time's components
// already gives the first of a repeated time; for a skipped one it moves the time forward by the
// gap's length (02:30 → 03:30 in Madrid), so the engine reads the wall clock back and, in a gap,
// takes the zone's transition instant itself (03:00). Checked against `Calendar.nextDate` with the
// `.nextTime` and `.first` policies over three years of quarter hours in nine zones with unusual
// changes: the same instants, at a thirtieth of the cost, except on Lord Howe Island, whose
// half-hour gap sends `nextDate` to the next day.

import Foundation

package struct LocalCalendar: Sendable {
    private let calendar: Calendar

    package init(timeZone: TimeZone) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        self.calendar = calendar
    }

    /// The first instant of `day`: local midnight, the end of the gap when a DST change skips
    /// midnight (Havana, old São Paulo), the first one when it repeats. Foundation's date from a
    /// date's components is exactly that, as `startOfDay(for:)` is, at a tenth of the cost.
    package func startOfDay(_ day: LocalDay) -> WallInstant {
        let components = DateComponents(year: day.year, month: day.month, day: day.day)
        guard let date = calendar.date(from: components) else { return WallInstant(secondsSince1970: Double(day.daysSince1970) * 86_400) }
        return WallInstant(date)
    }

    /// The instant the wall clock first shows `time` on `day`, or the first instant after the gap
    /// when that time does not exist there.
    package func instant(of day: LocalDay, at time: TimeOfDay) -> WallInstant {
        let components = DateComponents(year: day.year, month: day.month, day: day.day, hour: time.hour, minute: time.minute)
        guard let date = calendar.date(from: components) else {
            return WallInstant(secondsSince1970: Double(day.daysSince1970) * 86_400 + Double(time.minuteOfDay * 60))
        }
        let shown = LocalClock(timeZone: calendar.timeZone).wallClockUncached(at: WallInstant(date))
        if shown.day == day && shown.minuteOfDay == time.minuteOfDay { return WallInstant(date) }
        // In a gap: the transition that opened it lies within the gap's length before `date`.
        if let transition = calendar.timeZone.nextDaylightSavingTimeTransition(after: date.addingTimeInterval(-4 * 3600)),
           transition <= date {
            return WallInstant(transition)
        }
        return WallInstant(date)
    }
}
