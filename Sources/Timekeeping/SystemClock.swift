// The host's clock: the one place the system time is read and slept on. Only the command line,
// the daemon's wiring and the simulator's executable hand it to the logic (and the defaults of
// initialisers with many callers).

import Foundation

public struct SystemClock: WallClock {
    public init() {}

    public var now: Double { Date().timeIntervalSince1970 }

    public var instant: MonotonicInstant { MonotonicInstant(.now) }

    public func sleep(until deadline: MonotonicInstant) async throws {
        try await Task.sleep(until: deadline.base, clock: .continuous)
    }
}
