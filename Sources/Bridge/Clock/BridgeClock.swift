// Time as the bridge's logic sees it. Rules and engines take a clock; only the command line
// and the daemon hand them the system clock, so replay and tests can drive time.

import Foundation
import Locking

public protocol BridgeClock: Sendable {
    /// UTC seconds since 1970.
    var now: Double { get }
}

/// The real clock, for the command line and the daemon only.
public struct SystemClock: BridgeClock {
    public init() {}
    public var now: Double { Date().timeIntervalSince1970 }
}

/// A clock that says what it is told (replay, tests).
public final class ManualClock: BridgeClock, Sendable {
    private let current: Locked<Double>

    public init(_ start: Double) { current = Locked(start) }

    public var now: Double { current.withLock { $0 } }

    public func set(_ value: Double) {
        current.withLock { $0 = value }
    }
}
