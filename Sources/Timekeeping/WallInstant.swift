// A point on the wall clock: what is stored, shown, sent and reminded about (a drink's time, the
// start of a local day, a reminder's due time). Its own type, not bare `Double` seconds, so that
// an instant cannot be passed where a duration is meant (or the other way round), and the
// arithmetic between the two is `Duration`. Deadlines, time-outs and back-offs are not on the wall
// clock (it jumps when NTP steps it): they are `MonotonicInstant`s.
//
// Inside, UTC seconds since 1970 as a `Double`, the number the bridge has always stored and sent:
// a capture's sub-second times keep their precision, and encoding it (Codable, `description`)
// writes exactly that number, so JSON, captures and log lines are the bytes they were. `Date` is
// met at the edges only (Foundation's calendar, a date formatter), through `date` and `init(_:)`.

import Foundation

/// UTC seconds since 1970, with a fraction.
///
/// Deliberately not `ExpressibleByIntegerLiteral`/`FloatLiteral`: with a literal conversion,
/// `instant - 600` compiles as `instant - WallInstant(600)`, a `Duration` of about 56 years, where
/// `instant - .seconds(600)` was meant. A number of seconds becomes an instant only through
/// `init(secondsSince1970:)` (ArchitectureTests.WallInstantTests keeps it so).
package struct WallInstant: Hashable, Comparable, Sendable {
    /// UTC seconds since 1970 (negative before it), with a fraction.
    package var secondsSince1970: Double

    package init(secondsSince1970: Double) {
        self.secondsSince1970 = secondsSince1970
    }

    /// 1970-01-01T00:00:00Z.
    package static let epoch = WallInstant(secondsSince1970: 0)

    /// The next representable instant: the end of a half-open range that must include this one.
    package var nextUp: WallInstant { WallInstant(secondsSince1970: secondsSince1970.nextUp) }

    /// The previous representable instant: the last one a half-open range ending here includes.
    package var nextDown: WallInstant { WallInstant(secondsSince1970: secondsSince1970.nextDown) }

    package static func < (lhs: WallInstant, rhs: WallInstant) -> Bool {
        lhs.secondsSince1970 < rhs.secondsSince1970
    }

    /// The time from this instant to `other` (negative when `other` is earlier). Saturates at
    /// ±10^15 s (zero for NaN): `Duration` traps on a non-finite number, and an instant at
    /// -infinity is how "never" is written where a time is compared with the last one.
    package func duration(to other: WallInstant) -> Duration {
        let seconds = other.secondsSince1970 - secondsSince1970
        guard !seconds.isNaN else { return .zero }
        return .seconds(min(max(seconds, -Self.farthest), Self.farthest))
    }

    /// 10^15 s (about 31 million years): farther than any two instants the bridge compares.
    private static let farthest: Double = 1e15

    package func advanced(by duration: Duration) -> WallInstant {
        WallInstant(secondsSince1970: secondsSince1970 + duration.inSeconds)
    }

    package static func + (lhs: WallInstant, rhs: Duration) -> WallInstant { lhs.advanced(by: rhs) }

    package static func - (lhs: WallInstant, rhs: Duration) -> WallInstant { lhs.advanced(by: .zero - rhs) }

    /// How long after `rhs` `lhs` is.
    package static func - (lhs: WallInstant, rhs: WallInstant) -> Duration { rhs.duration(to: lhs) }

    package static func += (lhs: inout WallInstant, rhs: Duration) { lhs = lhs + rhs }

    package static func -= (lhs: inout WallInstant, rhs: Duration) { lhs = lhs - rhs }
}

/// At the edges: Foundation's calendar and formatters take a `Date`.
extension WallInstant {
    package init(_ date: Date) {
        secondsSince1970 = date.timeIntervalSince1970
    }

    package var date: Date { Date(timeIntervalSince1970: secondsSince1970) }
}

/// Encoded as the number it stands for (seconds since 1970), as the `Double` it replaced was.
extension WallInstant: Codable {
    package init(from decoder: any Decoder) throws {
        secondsSince1970 = try decoder.singleValueContainer().decode(Double.self)
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(secondsSince1970)
    }
}

/// Written as the number (`1763712000.0`), so a line that interpolates an instant reads as it
/// did when the instant was a `Double`.
extension WallInstant: CustomStringConvertible {
    package var description: String { secondsSince1970.description }
}
