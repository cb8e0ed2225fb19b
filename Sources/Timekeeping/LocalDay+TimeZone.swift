// A local day placed in a time zone: the day an instant falls in, and the instants a day spans.

import Foundation

extension LocalDay {
    /// The local day of `instant` in `timeZone`: the date its wall clock shows.
    package init(containing instant: WallInstant, timeZone: TimeZone) {
        self = LocalClock(timeZone: timeZone).wallClockUncached(at: instant).day
    }

    /// The day's instants `[start, end)` in `timeZone`, from Foundation's calendar:
    /// 24 hours long, or 23 / 25 around a DST change.
    package func interval(in timeZone: TimeZone) -> (start: WallInstant, end: WallInstant) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        // Noon exists on every day of every zone; midnight does not (zones that change at 00:00).
        let noon = DateComponents(year: year, month: month, day: day, hour: 12)
        guard let date = calendar.date(from: noon), let day = calendar.dateInterval(of: .day, for: date) else {
            // Unreachable for valid dates; fall back to the offset-based day.
            let midnightUTC = Double(daysSince1970) * 86_400
            let start = midnightUTC - Double(timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: midnightUTC)))
            return (WallInstant(secondsSince1970: start), WallInstant(secondsSince1970: start + 86_400))
        }
        return (WallInstant(day.start), WallInstant(day.end))
    }
}
