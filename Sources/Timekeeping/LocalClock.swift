// Reading an instant as the local wall clock shows it (docs/reminders.md 0). The wall-clock time
// of UTC instant t is t + offset(t), with the offset the time-zone database gives for t (DST
// included); its date is the civil date of that reading, which is exactly what `Calendar`
// computes, at a fraction of the cost of a `Calendar` call. The reminder rules ask at every
// minute tick and the day totals once per drink, so the offset is cached until the zone's next
// transition: it always comes from the time-zone library (DST is never worked out by adding
// 3600 s by hand), only the asking is saved.

import Foundation

/// What the local wall clock shows at an instant: the date and the minute of the day (seconds
/// ignored).
package struct WallClockTime: Equatable, Sendable {
    package let day: LocalDay
    /// 0 (00:00) ... 1439 (23:59).
    package let minuteOfDay: Int

    package init(day: LocalDay, minuteOfDay: Int) {
        self.day = day
        self.minuteOfDay = minuteOfDay
    }

    package var hour: Int { minuteOfDay / 60 }
    package var minute: Int { minuteOfDay % 60 }
}

/// Converts wall-clock instants to local wall-clock time in one time zone.
package struct LocalClock: Sendable {
    package let timeZone: TimeZone

    /// The offset known to hold on `[validFrom, validUntil)`.
    private var cachedOffset: (validFrom: Double, validUntil: Double, seconds: Int)?

    package init(timeZone: TimeZone) {
        self.timeZone = timeZone
    }

    /// The wall-clock time at `instant`, remembering the offset until the next transition.
    package mutating func wallClock(at rawInstant: WallInstant) -> WallClockTime {
        let instant = LocalClock.sanitized(rawInstant.secondsSince1970)
        if let cached = cachedOffset, instant >= cached.validFrom, instant < cached.validUntil {
            return LocalClock.wallClock(at: instant, offset: cached.seconds)
        }
        let date = Date(timeIntervalSince1970: instant)
        let offset = timeZone.secondsFromGMT(for: date)
        let next = timeZone.nextDaylightSavingTimeTransition(after: date)?.timeIntervalSince1970 ?? .infinity
        cachedOffset = (instant, next, offset)
        return LocalClock.wallClock(at: instant, offset: offset)
    }

    /// The wall-clock time at `instant`, without touching the cache (for read-only views).
    package func wallClockUncached(at rawInstant: WallInstant) -> WallClockTime {
        let instant = LocalClock.sanitized(rawInstant.secondsSince1970)
        return LocalClock.wallClock(at: instant, offset: timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: instant)))
    }

    /// The local day of `instant`, remembering the offset until the next transition.
    package mutating func day(at instant: WallInstant) -> LocalDay {
        wallClock(at: instant).day
    }

    /// A non-finite or absurd instant must not trap: it reads as the epoch or the clamp bound
    /// (±10^12 s, about ±31,000 years).
    static func sanitized(_ instant: Double) -> Double {
        instant.isFinite ? min(max(instant, -1e12), 1e12) : 0
    }

    private static func wallClock(at instant: Double, offset: Int) -> WallClockTime {
        let (days, secondOfDay) = CivilDate.split(seconds: Int(instant.rounded(.down)) + offset)
        return WallClockTime(day: LocalDay(daysSince1970: days), minuteOfDay: secondOfDay / 60)
    }
}
