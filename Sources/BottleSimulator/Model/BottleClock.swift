// Where the simulated bottle gets the time from.
//
// The model never asks the system for the time itself: it reads an injected clock, so tests can
// step through a day of drinks, a 5 s rebuild or a calibration without waiting.
import Foundation
import Locking

/// Wall-clock time as UTC seconds since 1970, with a fraction.
public protocol BottleClock: Sendable {
    var now: Double { get }
}

/// The host's clock (what `aquavate-sim` uses).
public struct SystemClock: BottleClock {
    public init() {}
    public var now: Double { Date().timeIntervalSince1970 }
}

/// A clock that moves only when told to (tests).
public final class ManualClock: BottleClock {
    private let seconds: Locked<Double>

    public init(_ start: Double = 1_763_712_000) {  // 2025-11-21T08:00:00Z
        seconds = Locked(start)
    }

    public var now: Double { seconds.withLock { $0 } }

    /// Moves the clock forward (or, with a negative value, back).
    public func advance(by delta: Double) {
        seconds.withLock { $0 += delta }
    }

    public func set(_ value: Double) {
        seconds.withLock { $0 = value }
    }
}
