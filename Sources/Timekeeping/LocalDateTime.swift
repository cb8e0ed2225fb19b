// A local date and time of day without a zone (docs/reminders.md 3: a schedule's `first`, "local
// date-time"), written `YYYY-MM-DDTHH:MM` as in the configuration file.

import Foundation

/// A date on the local calendar and a wall-clock time on it.
package struct LocalDateTime: Hashable, Comparable, Sendable, CustomStringConvertible {
    package let day: LocalDay
    package let time: TimeOfDay

    package init(day: LocalDay, time: TimeOfDay) {
        self.day = day
        self.time = time
    }

    /// Parses `YYYY-MM-DDTHH:MM` (a space may stand for the `T`, and `:00` seconds may follow, as
    /// in a TOML local date-time). Refuses, with the reason, a date that does not exist (day 0,
    /// day 32, 29 February of a common year, month 13) and a time outside 00:00 ... 23:59.
    package init(parsing text: String) throws(InvalidLocalDateTime) {
        let separator = text.firstIndex { $0 == "T" || $0 == " " }
        guard let separator else { throw InvalidLocalDateTime(text: text, reason: .shape) }
        let datePart = String(text[..<separator])
        let timePart = String(text[text.index(after: separator)...])
        let fields = datePart.split(separator: "-", omittingEmptySubsequences: false)
        guard fields.count == 3, fields[0].count == 4, fields[1].count == 2, fields[2].count == 2,
              fields.allSatisfy({ $0.allSatisfy(\.isASCIIDigit) }),
              let year = Int(fields[0]), let month = Int(fields[1]), let dayNumber = Int(fields[2]) else {
            throw InvalidLocalDateTime(text: text, reason: .shape)
        }
        guard (1...12).contains(month) else { throw InvalidLocalDateTime(text: text, reason: .month(month)) }
        let length = CivilDate.daysIn(month: month, year: year)
        guard let day = LocalDay(year: year, month: month, day: dayNumber) else {
            throw InvalidLocalDateTime(text: text, reason: .day(dayNumber, month: month, year: year, length: length))
        }
        guard let time = try? TimeOfDay(parsing: timePart) else {
            throw InvalidLocalDateTime(text: text, reason: .time(timePart))
        }
        self.init(day: day, time: time)
    }

    /// `YYYY-MM-DDTHH:MM`.
    package var description: String { "\(day)T\(time)" }

    package static func < (lhs: LocalDateTime, rhs: LocalDateTime) -> Bool {
        (lhs.day, lhs.time) < (rhs.day, rhs.time)
    }
}

/// Stored as its text (`2026-11-20T07:05`).
extension LocalDateTime: CodableAsText {}

/// A local date-time that could not be read, and why.
package struct InvalidLocalDateTime: Error, Equatable, CustomStringConvertible {
    package enum Reason: Equatable, Sendable {
        case shape
        case month(Int)
        case day(Int, month: Int, year: Int, length: Int)
        case time(String)
    }

    package let text: String
    package let reason: Reason

    package var description: String {
        let expected = "expected YYYY-MM-DDTHH:MM in local time, e.g. 2026-11-22T09:00"
        switch reason {
        case .shape:
            return "\"\(text)\" is not a local date-time; \(expected)"
        case .month(let month):
            return "\"\(text)\": there is no month \(month); expected a month from 01 to 12"
        case .day(let day, let month, let year, let length):
            return "\"\(text)\": day \(day) does not exist in \(year)-\(month < 10 ? "0" : "")\(month), which has \(length) days; expected 01 to \(length)"
        case .time(let time):
            return "\"\(text)\": \"\(time)\" is not a time of day; expected HH:MM from 00:00 to 23:59"
        }
    }
}

extension LocalDateTime {
    /// The instant the wall clock of `timeZone` first shows this (the first instant after a DST
    /// gap that skips it).
    package func instant(in timeZone: TimeZone) -> WallInstant {
        LocalCalendar(timeZone: timeZone).instant(of: day, at: time)
    }
}
