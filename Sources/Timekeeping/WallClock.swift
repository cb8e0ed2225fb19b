// Time as the logic sees it: injected, so that tests and replay drive it and nothing inside the
// logic reads the system clock. `SystemClock` is the one place that does.
//
// Called `WallClock`, not `Clock`: the standard library's `Clock` (ContinuousClock's protocol,
// which `MonotonicClock` builds on) would be shadowed in every module that imports this one.

/// UTC seconds since 1970, and a wait measured on the same clock.
public protocol WallClock: Sendable {
    /// UTC seconds since 1970, with a fraction.
    var now: Double { get }
    /// Suspends for `seconds` of this clock's time; throws `CancellationError` when the task is
    /// cancelled. A back-off waits on it so that a test can step through the schedule.
    func sleep(for seconds: Double) async throws
}

extension WallClock {
    /// A real wait: what a clock that only reports the time (a test's fixed clock) does.
    public func sleep(for seconds: Double) async throws {
        try await Task.sleep(nanoseconds: UInt64(max(0, seconds) * 1_000_000_000))
    }
}
