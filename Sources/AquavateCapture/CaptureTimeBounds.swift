/// The times a capture may hold (docs/design.md 3.3). Replay ticks the reminder engine at
/// every minute of its timeline, so a mistyped `t` (milliseconds: 1e13) would have it tick for
/// ever; a time past the end of this century is rejected like any other malformed line.
///
/// There is no lower bound beyond 0: a Raspberry Pi without a real-time clock records in 1970
/// until NTP has synchronised it, and such a recording is still a faithful one.

import Timekeeping

package enum CaptureTimeBounds {
    /// 2100-01-01T00:00:00Z, the first time a capture may not hold.
    package static let end: WallInstant = WallInstant(secondsSince1970: 4_102_444_800)

    /// Why `time` (UTC seconds since 1970, as a capture's line holds it) cannot be a capture time,
    /// or nil when it can.
    package static func problem(with time: Double) -> String? {
        guard time.isFinite, time >= 0 else { return "t must be a finite number ≥ 0, got \(time)" }
        guard time < end.secondsSince1970 else {
            return "t \(time) is after \(ISO8601Text.format(end)) (\(Int64(end.secondsSince1970))): expected UTC seconds since 1970, not milliseconds"
        }
        return nil
    }
}
