// What a loop holds to tell the watchdog it is getting somewhere (LoopProgress explains the
// rules). A value: the daemon and its helpers pass it around; `.unobserved` (no service manager,
// tests, benchmarks) does nothing.

import Timekeeping

package struct Heartbeat: Sendable {
    private let progress: LoopProgress?
    private let index: Int

    init(progress: LoopProgress?, index: Int) {
        self.progress = progress
        self.index = index
    }

    /// For loops nobody watches.
    package static let unobserved = Heartbeat(progress: nil, index: 0)

    /// A real transition happened (`what`, for the log line when the loop later stalls).
    package func mark(_ what: @autoclosure () -> String) {
        progress?.mark(index, what())
    }

    /// About to block until `deadline` at the latest; `what` it waits for, when that is not what
    /// it last said (`status`).
    package func waiting(until deadline: MonotonicInstant, _ what: @autoclosure () -> String? = nil) {
        progress?.waiting(index, until: deadline, what())
    }

    /// About to block for `duration` at most.
    package func waiting(for duration: Duration, _ what: @autoclosure () -> String? = nil) {
        guard let progress else { return }
        progress.waiting(index, until: progress.now + duration, what())
    }

    /// What the loop does now, in words: the service's status (`STATUS=`) when this loop reports
    /// it, and what a stall report says it was doing.
    package func status(_ text: @autoclosure () -> String) {
        progress?.status(index, text())
    }

    /// What the loop last said it was doing ("starting" before it said anything).
    package var doing: String { progress?.doing(index) ?? "running" }
}
