// A local wall-clock time of day, `HH:MM` (docs/reminders.md 0: every hour the rules name is local).
// The rituals' times and a schedule's `first` are written this way in the configuration, so the
// parser lives here with one error that says what was wrong and what is expected.

/// `HH:MM` from 00:00 to 23:59, kept as minutes after local midnight.
package struct TimeOfDay: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// 0 (00:00) ... 1439 (23:59).
    package let minuteOfDay: Int

    /// Nil outside 00:00 ... 23:59.
    package init?(hour: Int, minute: Int) {
        guard (0...23).contains(hour), (0...59).contains(minute) else { return nil }
        minuteOfDay = hour * 60 + minute
    }

    /// Nil outside 0 ... 1439.
    package init?(minuteOfDay: Int) {
        guard (0..<1440).contains(minuteOfDay) else { return nil }
        self.minuteOfDay = minuteOfDay
    }

    /// Parses `HH:MM` (or `H:MM`), optionally with `:00` seconds (a TOML local time); anything
    /// else, seconds other than 00 included, is refused.
    package init(parsing text: String) throws(InvalidTimeOfDay) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2 || (parts.count == 3 && parts[2] == "00"),
              (1...2).contains(parts[0].count), parts[1].count == 2,
              parts[0].allSatisfy(\.isASCIIDigit), parts[1].allSatisfy(\.isASCIIDigit),
              let hour = Int(parts[0]), let minute = Int(parts[1]),
              let time = TimeOfDay(hour: hour, minute: minute) else {
            throw InvalidTimeOfDay(text: text)
        }
        self = time
    }

    package var hour: Int { minuteOfDay / 60 }
    package var minute: Int { minuteOfDay % 60 }

    /// `HH:MM`, zero-padded.
    package var description: String {
        (hour < 10 ? "0" : "") + "\(hour):" + (minute < 10 ? "0" : "") + "\(minute)"
    }

    package static func < (lhs: TimeOfDay, rhs: TimeOfDay) -> Bool { lhs.minuteOfDay < rhs.minuteOfDay }
}

/// Stored as `HH:MM`, the way the configuration writes it.
extension TimeOfDay: CodableAsText {}

/// A time of day that is not `HH:MM` from 00:00 to 23:59.
package struct InvalidTimeOfDay: Error, Equatable, CustomStringConvertible {
    package let text: String
    package var description: String { "\"\(text)\" is not a time of day; expected HH:MM from 00:00 to 23:59" }
}

extension Character {
    /// 0–9 only (`isNumber` also accepts other scripts' digits and fractions).
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
