// The answer of `LoopProgress.check()`: ping the watchdog, or which loops stalled and how.

import Timekeeping

package enum WatchdogVerdict: Sendable, Equatable {
    /// Every loop made progress since the last check or is inside a wait it declared.
    case ping
    /// These loops did neither: no ping, and systemd restarts the service when this lasts.
    case stalled([Stall])
}

/// One loop that neither marked progress nor is inside its declared wait.
package struct Stall: Sendable, Equatable, CustomStringConvertible {
    /// The participant, e.g. `daemon`, `reminders`.
    package var participant: String
    /// What it last said it was doing.
    package var doing: String
    /// Its last mark, if it ever marked.
    package var lastMark: String?
    package var sinceLastMark: Duration?
    /// How far past the time it promised to be back.
    package var overdue: Duration

    package var description: String {
        let last = lastMark.map { mark in
            "last progress \(sinceLastMark?.secondsText ?? "?") ago (\(mark))"
        } ?? "no progress since it started"
        return "\(participant) stalled while \(doing): \(last), \(overdue.secondsText) past the time it promised to be back"
    }
}
