// Time for liveness (deadlines, time-outs, back-offs, the watchdog): monotonic, never the wall
// clock. A Raspberry Pi has no real-time clock, so its wall clock jumps (by years, at the first
// NTP sync after boot); a deadline on the wall clock would then look long passed, or be years
// away.
//
// The monotonic face of the one injected clock (`WallClock` refines it): code that only measures
// time (the watchdog, the web's login throttle) asks for no more than this.

package protocol MonotonicClock: Sendable {
    /// The monotonic present.
    var instant: MonotonicInstant { get }
}

extension MonotonicClock {
    /// The instant `duration` from now: a deadline.
    package func deadline(after duration: Duration) -> MonotonicInstant {
        instant + duration
    }

    /// What is left until `deadline` (negative once it has passed).
    package func timeLeft(until deadline: MonotonicInstant) -> Duration {
        instant.duration(to: deadline)
    }

    /// How long since `start`.
    package func elapsed(since start: MonotonicInstant) -> Duration {
        start.duration(to: instant)
    }
}
