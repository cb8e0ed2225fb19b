// Reading an instant as the local wall clock shows it (docs/reminders.md 0). Every rule of the engine
// works on local dates and hh:mm, and the engine asks at every minute tick, so the UTC offset is
// cached until the time zone's next transition: the offset itself always comes from the time-zone
// library (DST is never worked out by adding 3600 s by hand), only the asking is saved.

import Foundation

/// What the local wall clock shows at an instant: the date and the minute of the day (seconds
/// ignored).
public struct WallClockTime: Equatable, Sendable {
    public let day: LocalDay
    /// 0 (00:00) ... 1439 (23:59).
    public let minuteOfDay: Int

    public init(day: LocalDay, minuteOfDay: Int) {
        self.day = day
        self.minuteOfDay = minuteOfDay
    }

    public var hour: Int { minuteOfDay / 60 }
    public var minute: Int { minuteOfDay % 60 }
}

/// Converts UTC epoch seconds to local wall-clock time in one time zone.
public struct LocalClock: Sendable {
    public let timeZone: TimeZone

    /// The offset known to hold on `[validFrom, validUntil)`.
    private var cachedOffset: (validFrom: Double, validUntil: Double, seconds: Int)?

    public init(timeZone: TimeZone) {
        self.timeZone = timeZone
    }

    /// The wall-clock time at `instant`, remembering the offset until the next transition.
    public mutating func wallClock(at rawInstant: Double) -> WallClockTime {
        let instant = LocalClock.sanitized(rawInstant)
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
    public func wallClockUncached(at rawInstant: Double) -> WallClockTime {
        let instant = LocalClock.sanitized(rawInstant)
        return LocalClock.wallClock(at: instant, offset: timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: instant)))
    }

    /// A non-finite or absurd instant must not trap: it reads as the epoch or the clamp bound
    /// (±10^12 s, about ±31,000 years).
    static func sanitized(_ instant: Double) -> Double {
        instant.isFinite ? min(max(instant, -1e12), 1e12) : 0
    }

    private static func wallClock(at instant: Double, offset: Int) -> WallClockTime {
        let local = Int(instant.rounded(.down)) + offset
        let days = local >= 0 ? local / 86_400 : (local - 86_399) / 86_400
        let secondOfDay = local - days * 86_400
        return WallClockTime(day: LocalDay(daysSince1970: days), minuteOfDay: secondOfDay / 60)
    }
}
