// A local calendar date (year, month, day), with no time and no time zone.

import Foundation

/// A day of the proleptic Gregorian calendar, as people name it in their time zone.
/// `description` is `YYYY-MM-DD`, the `date` of docs/design.md 3.4 `day` events.
public struct LocalDate: Sendable, Hashable, Comparable, CustomStringConvertible, Codable {
    public let year: Int
    public let month: Int
    public let day: Int

    /// Nil unless the date exists (month 1…12, day within the month, year 1…9999).
    public init?(year: Int, month: Int, day: Int) {
        guard (1...9999).contains(year), (1...12).contains(month),
              (1...Self.daysIn(month: month, year: year)).contains(day) else { return nil }
        self.year = year
        self.month = month
        self.day = day
    }

    /// Parses `YYYY-MM-DD`; nil for anything else or a date that does not exist.
    public init?(_ text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
              let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]) else { return nil }
        self.init(year: year, month: month, day: day)
    }

    /// The local date of `instant` (UTC seconds) in `timeZone`.
    public init(containing instant: Double, timeZone: TimeZone) {
        let seconds = Int64(min(max(instant.isFinite ? instant : 0, -1e12), 1e12).rounded(.down))
        self.init(daysSince1970: LocalDays(timeZone: timeZone).day(of: seconds))
    }

    public var description: String {
        "\(Self.padded(year, 4))-\(Self.padded(month, 2))-\(Self.padded(day, 2))"
    }

    public static func < (lhs: LocalDate, rhs: LocalDate) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }

    /// The date `days` later (earlier when negative).
    public func adding(days: Int) -> LocalDate {
        LocalDate(daysSince1970: daysSince1970 + days)
    }

    /// The day's instants `[start, end)` in `timeZone`, UTC seconds, from Foundation's calendar:
    /// 24 hours long, or 23 / 25 around a DST change.
    public func interval(in timeZone: TimeZone) -> (start: Double, end: Double) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        // Noon exists on every day of every zone; midnight does not (zones that change at 00:00).
        let noon = DateComponents(year: year, month: month, day: day, hour: 12)
        guard let date = calendar.date(from: noon), let day = calendar.dateInterval(of: .day, for: date) else {
            // Unreachable for valid dates; fall back to the offset-based day.
            let midnightUTC = Double(daysSince1970) * 86_400
            let start = midnightUTC - Double(timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: midnightUTC)))
            return (start, start + 86_400)
        }
        return (day.start.timeIntervalSince1970, day.end.timeIntervalSince1970)
    }

    // MARK: - Day numbers (civil calendar arithmetic, H. Hinnant's algorithms)

    /// Days since 1970-01-01 (negative before).
    var daysSince1970: Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    init(daysSince1970 days: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        self.year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        self.month = month
        self.day = day
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    private static func padded(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    // MARK: - Codable as "YYYY-MM-DD"

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let date = LocalDate(text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                                                    debugDescription: "expected a date YYYY-MM-DD, got \(text)"))
        }
        self = date
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}

/// Which local day an instant falls in: the day number of its wall-clock time.
///
/// The wall-clock time of UTC instant t is t + offset(t), with the offset the time zone database
/// gives for t (DST included); the local date is the civil date of that wall-clock time, which is
/// exactly what `Calendar` computes, at a fraction of the cost of a `Calendar` call per drink.
/// The tests check it against `Calendar` around DST changes in several zones.
struct LocalDays {
    let timeZone: TimeZone

    func day(of seconds: Int64) -> Int {
        let offset = Int64(timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(seconds))))
        let wallClock = seconds + offset
        return Int(wallClock >= 0 ? wallClock / 86_400 : (wallClock - 86_399) / 86_400)
    }
}
