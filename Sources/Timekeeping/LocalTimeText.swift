// The text a person reads for an instant: the local date and time in a time zone, to the
// second (`2026-11-25 09:12:34`). JSON, MQTT and stored text stay ISO 8601 UTC (ISO8601Text,
// docs/design.md 3.4); this is only for the human-readable lines of the commands and the log.

import Foundation

package enum LocalTimeText {
    /// `2026-11-25 09:12:34` for `instant` as the wall clock of `timeZone` shows
    /// it (DST included, from the time-zone database); a fraction is dropped (rounded down).
    package static func format(_ wallInstant: WallInstant, in timeZone: TimeZone) -> String {
        let instant = LocalClock.sanitized(wallInstant.secondsSince1970).rounded(.down)
        let offset = timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: instant))
        let (days, secondOfDay) = CivilDate.split(seconds: Int(instant) + offset)
        return CivilDate.text(daysSince1970: days, secondOfDay: secondOfDay)
    }
}
