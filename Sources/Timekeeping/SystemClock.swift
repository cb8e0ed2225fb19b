// The host's clock: the one place the system time is read and slept on. Only the command line,
// the daemon's wiring and the simulator's executable hand it to the logic (and the defaults of
// initialisers with many callers).

import Foundation

package struct SystemClock: WallClock {
    package init() {}

    package var now: WallInstant { WallInstant(Date()) }

    // `instant`, the sleeps and `startTimer` are `WallClock`'s defaults: the host's own.

    /// A libdispatch timer on the host's monotonic clock, `timeout` (at most ten years) from now.
    static func dispatchTimer(after timeout: Duration, _ expire: @escaping @Sendable () -> Void) -> () -> Void {
        let (seconds, attoseconds) = timeout.components
        let nanoseconds = Int(min(max(seconds, 0), 315_360_000)) * 1_000_000_000 + Int(max(attoseconds, 0) / 1_000_000_000)
        let source = DispatchSource.makeTimerSource(queue: .global())
        source.schedule(deadline: .now() + .nanoseconds(nanoseconds))
        source.setEventHandler(handler: expire)
        source.resume()
        return { source.cancel() }
    }
}
