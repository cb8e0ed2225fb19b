// Time as the logic sees it: one injected clock, so that tests and replay drive it and nothing
// outside this module reads the system clock or sleeps on it. It gives the wall-clock time
// (`now`: what is stored, shown and reminded about), the monotonic time (`instant`: what
// deadlines, time-outs and back-offs are measured on) and waits on either. `SystemClock` is the
// one place the host's clocks are read; `ManualClock` moves when a test moves it.
//
// It is also the timer of the waiting queues below it (Locking's `EventQueue`, which cannot
// depend on this module: `WaitTimer` says why), so their time-outs run on the same clock.
//
// Called `WallClock`, not `Clock`: the standard library's `Clock` (ContinuousClock's protocol)
// would be shadowed in every module that imports this one.

import Locking

/// The wall-clock present, the monotonic present, and waits measured on the same clock.
package protocol WallClock: MonotonicClock, WaitTimer {
    /// The wall-clock present.
    var now: WallInstant { get }
    /// Suspends for `seconds` of this clock's time; throws `CancellationError` when the task is
    /// cancelled. A back-off waits on it so that a test can step through the schedule.
    func sleep(for seconds: Double) async throws
    /// Suspends until the monotonic `deadline`; throws `CancellationError` when the task is
    /// cancelled.
    func sleep(until deadline: MonotonicInstant) async throws
}

extension WallClock {
    /// A real wait: what a clock that only reports the time (a test's fixed clock) does.
    package func sleep(for seconds: Double) async throws {
        try await Task.sleep(nanoseconds: UInt64(max(0, seconds) * 1_000_000_000))
    }

    /// The real monotonic time, for a clock that only reports the wall-clock time.
    package var instant: MonotonicInstant { MonotonicInstant(.now) }

    /// A real wait, for a clock that only reports the time.
    package func sleep(until deadline: MonotonicInstant) async throws {
        try await Task.sleep(until: deadline.base, clock: .continuous)
    }

    /// A real timer, for a clock that only reports the time.
    package func startTimer(after timeout: Duration, _ expire: @escaping @Sendable () -> Void) -> () -> Void {
        SystemClock.dispatchTimer(after: timeout, expire)
    }

    /// Suspends for `duration` of this clock's monotonic time.
    package func sleep(for duration: Duration) async throws {
        try await sleep(until: instant + duration)
    }
}
