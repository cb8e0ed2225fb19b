// Time for liveness (the watchdog): monotonic, never the wall clock. A Raspberry Pi has no
// real-time clock, so its wall clock jumps (by years, at the first NTP sync after boot); a
// deadline on the wall clock would then look long passed, or be years away. Injected, so the
// watchdog's logic is tested without sleeping.

import Locking

public protocol MonotonicClock: Sendable {
    var now: ContinuousClock.Instant { get }
}

/// The real monotonic clock, for the daemon (the clock `Task.sleep(for:)` sleeps on).
public struct SystemMonotonicClock: MonotonicClock {
    public init() {}
    public var now: ContinuousClock.Instant { ContinuousClock.now }
}

/// A monotonic clock that moves only when told to (tests).
public final class ManualMonotonicClock: MonotonicClock {
    private let current: Locked<ContinuousClock.Instant>

    /// Starts at the real clock's present, so instants from both can be compared.
    public init(_ start: ContinuousClock.Instant = ContinuousClock.now) {
        current = Locked(start)
    }

    public var now: ContinuousClock.Instant { current.withLock { $0 } }

    public func advance(by duration: Duration) {
        current.withLock { $0 += duration }
    }
}
