// A local calendar date (docs/reminders.md 0, docs/design.md 3.4 `day` events): the date a wall
// clock in some time zone shows, with no time and no zone. Kept as a day number so that
// comparing, storing and stepping dates is integer arithmetic, and written `YYYY-MM-DD` wherever
// it is shown or persisted, so output and the database stay readable.

/// A proleptic Gregorian calendar date, counted in days since 1970-01-01.
package struct LocalDay: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Days since 1970-01-01 (negative before it).
    package let daysSince1970: Int

    package init(daysSince1970: Int) {
        self.daysSince1970 = daysSince1970
    }

    /// The date, or nil when the month or the day does not exist (e.g. 2026-02-29).
    package init?(year: Int, month: Int, day: Int) {
        guard (1...12).contains(month), day >= 1, day <= CivilDate.daysIn(month: month, year: year) else { return nil }
        daysSince1970 = CivilDate.daysSince1970(year: year, month: month, day: day)
    }

    /// Parses `YYYY-MM-DD` (ASCII digits only); nil for anything else or a date that does not exist.
    package init?(_ text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              parts.allSatisfy({ $0.allSatisfy { ("0"..."9").contains($0) } }),
              let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]) else { return nil }
        self.init(year: year, month: month, day: day)
    }

    package var year: Int { CivilDate.date(daysSince1970: daysSince1970).year }
    package var month: Int { CivilDate.date(daysSince1970: daysSince1970).month }
    package var day: Int { CivilDate.date(daysSince1970: daysSince1970).day }

    /// `YYYY-MM-DD`.
    package var description: String {
        CivilDate.text(daysSince1970: daysSince1970)
    }

    package static func < (lhs: LocalDay, rhs: LocalDay) -> Bool { lhs.daysSince1970 < rhs.daysSince1970 }

    package static func + (day: LocalDay, days: Int) -> LocalDay { LocalDay(daysSince1970: day.daysSince1970 + days) }

    package static func - (day: LocalDay, days: Int) -> LocalDay { LocalDay(daysSince1970: day.daysSince1970 - days) }
}

/// Stored and sent as `YYYY-MM-DD`.
extension LocalDay: Codable {
    package init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let day = LocalDay(text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                                                    debugDescription: "'\(text)' is not a date YYYY-MM-DD"))
        }
        self = day
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
