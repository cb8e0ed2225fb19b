// What the reminder runner does when time moves on by more than its minute ticks can follow.
// docs/reminders.md 0 has two timelines: one run of the bridge, ticked at every minute, and a
// restart, where nothing is ticked while the bridge is down and the on-start rules run at its
// first event. A jump of the clock is treated as the second: ticking every minute of a 30-day
// jump at once would send 60 reminders, and a backward jump would tick nothing until the clock
// caught up.

import Timekeeping

package enum TimeGapRule: Sendable, Equatable {
    /// The daemon: its ticker wakes the runner every minute, so time that moved by more than
    /// `limit` since the last evaluation, forward or backward, is a clock that jumped (an NTP
    /// step on a Pi without a real-time clock, a date set by hand, a suspend): a restart.
    case restartAfter(Duration)
    /// Replay: every minute of a gap between events is ticked (one timeline, docs/reminders.md 0), up
    /// to `atMost`; a longer gap is a restart, so a capture cannot make replay tick for ever.
    case tickThrough(atMost: Duration)

    /// The daemon's rule: more than 5 minutes either way.
    package static let daemon = TimeGapRule.restartAfter(.seconds(300))
    /// Replay's rule: gaps of up to 366 days are ticked (527,040 ticks, a few seconds).
    package static let replay = TimeGapRule.tickThrough(atMost: .seconds(366 * 86_400))

    /// True when moving from the last evaluation at `last` (the last tick at `lastTick`) to
    /// `instant` is a restart rather than ticks.
    func isRestart(from last: WallInstant, lastTick: WallInstant, to instant: WallInstant) -> Bool {
        switch self {
        case .restartAfter(let limit):
            return instant - last > limit || last - instant > limit
        case .tickThrough(let limit):
            return instant - lastTick > limit
        }
    }
}
