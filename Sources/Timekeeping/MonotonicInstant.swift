// A point on the monotonic clock: what deadlines, time-outs and back-offs are measured on. Its
// own type, not `ContinuousClock.Instant`, so that no module outside this one can read the
// system's monotonic time through the instant type's `.now`: an instant comes only from an
// injected clock (`MonotonicClock.instant`), and a manual clock moves it in tests.
//
// Inside, it is the continuous clock's instant (the clock `SystemClock` sleeps on), so a real
// deadline and a real sleep agree to the nanosecond.

package struct MonotonicInstant: InstantProtocol, Sendable {
    package typealias Duration = Swift.Duration

    let base: ContinuousClock.Instant

    init(_ base: ContinuousClock.Instant) {
        self.base = base
    }

    package func advanced(by duration: Duration) -> MonotonicInstant {
        MonotonicInstant(base.advanced(by: duration))
    }

    package func duration(to other: MonotonicInstant) -> Duration {
        base.duration(to: other.base)
    }

    package static func < (lhs: MonotonicInstant, rhs: MonotonicInstant) -> Bool {
        lhs.base < rhs.base
    }

    package static func + (lhs: MonotonicInstant, rhs: Duration) -> MonotonicInstant {
        lhs.advanced(by: rhs)
    }

    package static func - (lhs: MonotonicInstant, rhs: Duration) -> MonotonicInstant {
        lhs.advanced(by: .zero - rhs)
    }

    package static func - (lhs: MonotonicInstant, rhs: MonotonicInstant) -> Duration {
        rhs.duration(to: lhs)
    }

    package static func += (lhs: inout MonotonicInstant, rhs: Duration) {
        lhs = lhs + rhs
    }

    package static func -= (lhs: inout MonotonicInstant, rhs: Duration) {
        lhs = lhs - rhs
    }
}
