// Time for liveness (deadlines, time-outs, back-offs, the watchdog): monotonic, never the wall
// clock. A Raspberry Pi has no real-time clock, so its wall clock jumps (by years, at the first
// NTP sync after boot); a deadline on the wall clock would then look long passed, or be years
// away.
//
// The monotonic face of the one injected clock (`WallClock` refines it): code that only measures
// time (the watchdog, the web's login throttle) asks for no more than this.

public protocol MonotonicClock: Sendable {
    /// The monotonic present.
    var instant: MonotonicInstant { get }
}

extension MonotonicClock {
    /// The instant `duration` from now: a deadline.
    public func deadline(after duration: Duration) -> MonotonicInstant {
        instant + duration
    }

    /// What is left until `deadline` (negative once it has passed).
    public func timeLeft(until deadline: MonotonicInstant) -> Duration {
        instant.duration(to: deadline)
    }

    /// How long since `start`.
    public func elapsed(since start: MonotonicInstant) -> Duration {
        start.duration(to: instant)
    }
}
