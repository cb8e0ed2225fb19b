// Local dates and times of day turned into instants, by Foundation's calendar in the configured
// zone (REMINDERS.md 0: DST is the calendar library's business, never 3600 s added by hand).
//
// REMINDERS.md 3: "A local time that a DST change skips fires at the first instant after the gap;
// one it repeats fires once, the first time." That is exactly `Calendar.nextDate` with the
// `.nextTime` matching policy and the `.first` repeated-time policy, searched from the start of
// the date, so each date resolves on its own and a repeated hour never yields two occurrences.

import Foundation

struct LocalCalendar: Sendable {
    private let calendar: Calendar

    init(timeZone: TimeZone) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        self.calendar = calendar
    }

    /// The first instant of `day` (local midnight, or the end of the gap when a DST change skips
    /// midnight).
    func startOfDay(_ day: LocalDay) -> Double {
        let components = DateComponents(year: day.year, month: day.month, day: day.day)
        guard let date = calendar.date(from: components) else { return Double(day.daysSince1970) * 86_400 }
        return calendar.startOfDay(for: date).timeIntervalSince1970
    }

    /// The instant the wall clock first shows `time` on `day`, or the first instant after the gap
    /// when that time does not exist there.
    func instant(of day: LocalDay, at time: TimeOfDay) -> Double {
        let start = startOfDay(day)
        let matching = DateComponents(hour: time.hour, minute: time.minute, second: 0)
        if let date = calendar.nextDate(after: Date(timeIntervalSince1970: start - 1), matching: matching,
                                        matchingPolicy: .nextTime, repeatedTimePolicy: .first, direction: .forward),
           date.timeIntervalSince1970 < startOfDay(day + 1) {
            return date.timeIntervalSince1970
        }
        // Not reached for real zones; kept so that an odd zone never traps.
        return start + Double(time.minuteOfDay * 60)
    }
}
