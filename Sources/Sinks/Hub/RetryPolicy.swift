// The back-off schedule of a sink whose deliveries fail: 1 s, 2 s, 4 s … up to 5 minutes, then
// every 5 minutes until it recovers (docs/reminders.md 1: "a sink failure is logged and retried").

import Timekeeping

package struct RetryPolicy: Sendable, Equatable {
    package var initialDelay: Duration
    package var maximumDelay: Duration
    package var multiplier: Double

    package init(initialDelay: Duration = .seconds(1), maximumDelay: Duration = .seconds(300), multiplier: Double = 2) {
        self.initialDelay = initialDelay
        self.maximumDelay = maximumDelay
        self.multiplier = multiplier
    }

    package static let standard = RetryPolicy()

    /// The wait after the `failures`-th consecutive failure (1-based): 1, 2, 4, … 256, 300, 300 …
    package func delay(afterFailures failures: Int) -> Duration {
        var delay = initialDelay
        var step = 1
        while step < failures && delay < maximumDelay {
            delay = .seconds(delay.inSeconds * multiplier)
            step += 1
        }
        return min(delay, maximumDelay)
    }
}
