// ISO 8601 text of UTC instants (docs/design.md 3.4: `…Z`, which Home Assistant's `timestamp`
// sensors need), written without a date formatter and read in one place. Every timestamp the
// bridge prints, sends or stores as text goes through here.

import Foundation

package enum ISO8601Text {
    /// `2026-11-21T08:00:00Z`; a fraction is dropped (rounded down).
    package static func format(_ instant: WallInstant) -> String {
        format(seconds: instant.secondsSince1970)
    }

    private static func format(seconds: Double) -> String {
        utc(wholeSeconds: Int(clamped(seconds).rounded(.down)))
    }

    /// `2026-11-21T08:00:00Z` for a whole second, `2026-11-21T08:00:00.123Z` when the instant has
    /// a fraction: the milliseconds, rounded down.
    ///
    /// The milliseconds are counted the way Foundation's `ISO8601FormatStyle` counts them, from
    /// its reference date (2001-01-01), so that this text is byte for byte what the bridge's
    /// output has always carried (1763712000.123 is `.122Z`: the double nearest to it lies just
    /// below, once 978307200 s are taken off).
    package static func formatWithMilliseconds(_ instant: WallInstant) -> String {
        let seconds = clamped(instant.secondsSince1970)
        if seconds.rounded(.down) == seconds { return format(seconds: seconds) }
        let sinceReference = seconds - referenceDate
        let whole = sinceReference.rounded(.down)
        let milliseconds = Int(((sinceReference - whole) * 1000).rounded(.down))
        let text = utc(wholeSeconds: Int(whole) + Int(referenceDate))
        return text.dropLast() + "." + CivilDate.padded(milliseconds, 3) + "Z"
    }

    /// Reads an ISO 8601 date and time with a zone (`2026-11-20T18:00:00Z`,
    /// `2026-11-20T19:00:00+01:00`, a fraction allowed) as an instant; nil for anything else (a
    /// date alone, a time without a zone).
    package static func parse(_ text: String) -> WallInstant? {
        (try? Date(text, strategy: .iso8601)).map(WallInstant.init)
    }

    /// 2001-01-01T00:00:00Z, Foundation's reference date, in seconds since 1970.
    private static let referenceDate: Double = 978_307_200

    /// A non-finite or absurd instant must not trap: it reads as the epoch or the clamp bound
    /// (±10^12 s, about ±31,000 years).
    private static func clamped(_ seconds: Double) -> Double {
        seconds.isFinite ? min(max(seconds, -1e12), 1e12) : 0
    }

    private static func utc(wholeSeconds: Int) -> String {
        let (days, secondOfDay) = CivilDate.split(seconds: wholeSeconds)
        return CivilDate.text(daysSince1970: days, secondOfDay: secondOfDay, separator: UInt8(ascii: "T"), suffix: UInt8(ascii: "Z"))
    }
}
